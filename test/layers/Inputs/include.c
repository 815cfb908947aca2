/* One #include, of the header named by -DHEADER, compiled in one layer's include context
 * (test/layers/wrong-way.test). */
#include HEADER
int layers_probe;
