/* A planted call: a reference to CALLEE, declared in the header named by -DHEADER, in a
 * probe compiled in one layer's include context (test/layers/link.test, wrong-way.test). */
#include HEADER
void (*volatile layers_probe_call)(void) = (void (*)(void))CALLEE;
