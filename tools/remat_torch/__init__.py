"""remat-import-torch: tracing (trace), the rt writer and its op table (emit), torch's
partition (partition), the equivalence check (check, philox, textio) and forward-only
reference values (expected). See docs/importer.md."""
