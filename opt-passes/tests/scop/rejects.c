/* Loop nests SCoP detection must reject (tests/scop.rs), one reason each. */
#define N 64
float A[N][N], B[N], Q[N * N];
int idx[N];
void opaque(float);

void square_subscript(int n) {
  for (int i = 0; i < n; i++)
    Q[i * i] = 1.0f;
}

void data_bound(int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < idx[i]; j++)
      A[i][j] = 0.0f;
}

void impure(int n) {
  for (int i = 0; i < n; i++)
    opaque(B[i]);
}

void indirect(int n) {
  for (int i = 0; i < n; i++)
    B[idx[i]] = 1.0f;
}

void data_condition(int n) {
  for (int i = 0; i < n; i++)
    if (B[i] > 0.0f)
      B[i] = 0.0f;
}

void vol(int n, volatile float *v) {
  for (int i = 0; i < n; i++)
    v[i] = 0.0f;
}

/* Not a rejection: two arguments that may alias are recorded. */
void may_alias(int n, float *a, float *b) {
  for (int i = 0; i < n; i++)
    a[i] = b[i] + 1.0f;
}

/* Inner nest is a SCoP even though the outer loop is not. */
void inner_only(int n) {
  for (int t = 0; t < n; t++) {
    opaque(B[t]);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        A[i][j] += B[j];
  }
}

/* A do-while runs once before its test: the domain would need n >= 1. */
void do_while(int n) {
  int i = 0;
  do {
    B[i] = 0.0f;
    i++;
  } while (i < n);
}

/* One pointer, elements of two sizes: subscripts would count different units. */
void mixed_sizes(int n, float *p) {
  for (int i = 0; i < n; i++) {
    ((char *)p)[4 * i] = 0;
    p[i + 1] = 1.0f;
  }
}

/* A subscript through a narrow type wraps: not affine. */
void narrow(int n) {
  for (int i = 0; i < n; i++)
    B[(unsigned char)(i + 200)] = 0;
}

/* The first nest's final i is used by the second: not modelled, so two
 * SCoPs, the second with i as a parameter. */
void after_loop(int n, int m) {
  int i;
  for (i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[j] += 1.0f;
  for (int k = 0; k < 8; k++)
    B[i + k] = 0;
}
