// powf_fast/run: exposes pow.c's fast path and its float-float log to the harness.
#include "pow.c"
void probe_log(uint32_t ix, float *h, float *l) { powf_ff v = powf_log(ix); *h = v.hi; *l = v.lo; }
float probe_fast(float x, float y) { return powf_fast(x, y); }
