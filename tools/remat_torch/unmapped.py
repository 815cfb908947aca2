"""The rt ops the PyTorch importer never emits, each with the reason.

Every op of dialect-c/rt_ops.def is either emitted by the importer (its name appears in
this package as a string "rt.NAME") or listed here; test/ops/importer-mapping.test
fails otherwise, so a new op of the table is mapped or its omission is explained."""

UNMAPPED = {
    "rt.all_gather": "a collective: the importer traces one device's graph; sharded IR is "
                     "written for the FSDP passes, not traced",
    "rt.reduce_scatter": "a collective: the importer traces one device's graph; sharded IR "
                         "is written for the FSDP passes, not traced",
    "rt.all_reduce": "a collective: the importer traces one device's graph; sharded IR is "
                     "written for the FSDP passes, not traced",
    "rt.wait": "completes an asynchronous collective, which the importer never emits",
    "rt.attention": "fused attention: --remat-attention rewrites the decomposed softmax "
                    "attention the importer writes into it (issue 40); torch 1.13's traces "
                    "hold no fused attention op",
    "rt.attention_grad": "the backward of rt.attention: --remat-attention and "
                         "--remat-autodiff write it (issue 40)",
    "rt.extern": "written by the importer for unmapped ops (issue 38): this entry goes when "
                 "the importer emits it",
}
