/* conv_bench: the host's rt.conv, rt.conv_grad_input and rt.conv_grad_weight (the
 * runtime's kernel, lib/runtime/conv.c: what remat-run runs, reference and compiled),
 * single-threaded, on one 2-d geometry; prints the median of ROUNDS calls of each, in ms:
 *
 *   conv_bench N C H W O KH KW STRIDE PAD DILATION GROUPS ROUNDS
 *   -> "conv F grad_input I grad_weight W"
 *
 * bench/conv_speed.py runs it beside torch's CPU convolution, interleaved. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "ops.h"

static void fill(rtr_buffer *b, unsigned *s) {
  for (int64_t i = 0; i < b->numel; i++) {
    *s = *s * 1103515245u + 12345u;
    rtr_buffer_set_f32(b, i, (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f);
  }
}

int main(int argc, char **argv) {
  if (argc != 13) {
    fprintf(stderr, "usage: conv_bench N C H W O KH KW STRIDE PAD DILATION GROUPS ROUNDS\n");
    return 2;
  }
  int64_t a[12];
  for (int i = 0; i < 12; i++)
    a[i] = atoll(argv[i + 1]);
  rt_conv_geom g = {.n = 2, .batch = a[0], .in_ch = a[1], .out_ch = a[4], .groups = a[10]};
  for (int k = 0; k < 2; k++) {
    g.in[k] = a[2 + k], g.k[k] = a[5 + k], g.stride[k] = a[7], g.pad[k] = a[8], g.dil[k] = a[9];
    g.out[k] = (g.in[k] + 2 * g.pad[k] - g.dil[k] * (g.k[k] - 1) - 1) / g.stride[k] + 1;
  }
  int rounds = (int)a[11];
  int64_t xd[4] = {g.batch, g.in_ch, g.in[0], g.in[1]},
          wd[4] = {g.out_ch, g.in_ch / g.groups, g.k[0], g.k[1]},
          yd[4] = {g.batch, g.out_ch, g.out[0], g.out[1]};
  rtr_buffer *x = rtr_buffer_new(RTR_F32, false, 4, xd), *w = rtr_buffer_new(RTR_F32, false, 4, wd),
             *y = rtr_buffer_new(RTR_F32, false, 4, yd), *dx = rtr_buffer_new(RTR_F32, false, 4, xd),
             *dw = rtr_buffer_new(RTR_F32, false, 4, wd);
  unsigned s = 1;
  fill(x, &s), fill(w, &s), fill(y, &s);
  double *t[3];
  for (int k = 0; k < 3; k++)
    t[k] = malloc((size_t)rounds * sizeof **t);
  for (int r = 0; r < rounds; r++) { /* the three interleaved */
    double t0 = now_ms();
    rtr_conv(y, x, w, &g, RTR_CONV);
    double t1 = now_ms();
    rtr_conv(dx, y, w, &g, RTR_CONV_GRAD_INPUT);
    double t2 = now_ms();
    rtr_conv(dw, x, y, &g, RTR_CONV_GRAD_WEIGHT);
    double t3 = now_ms();
    t[0][r] = t1 - t0, t[1][r] = t2 - t1, t[2][r] = t3 - t2;
  }
  printf("conv %.4f grad_input %.4f grad_weight %.4f\n", median(t[0], rounds),
         median(t[1], rounds), median(t[2], rounds));
  for (int k = 0; k < 3; k++)
    free(t[k]);
  rtr_buffer_free(x), rtr_buffer_free(w), rtr_buffer_free(y), rtr_buffer_free(dx),
      rtr_buffer_free(dw);
  return 0;
}
