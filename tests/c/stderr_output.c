// stderr_output: output to stderr with fprintf/fputs/fputc interleaved with stdout; both streams are compared.
#include <stdio.h>

struct reading {
    const char *sensor;
    int value;
};
struct reading readings[] = {{"temp", 21}, {"temp", 95}, {"pressure", 1013}, {"humidity", -5}, {"temp", 22},
                             {"pressure", 2000}, {"humidity", 45}};

static int validate(const struct reading *r) {
    if (r->value < 0) {
        fprintf(stderr, "error: %s reading %d is negative\n", r->sensor, r->value);
        return 0;
    }
    if (r->value > 1500 || (r->sensor[0] == 't' && r->value > 60)) {
        fprintf(stderr, "warning: %s reading %d out of range\n", r->sensor, r->value);
        return 0;
    }
    return 1;
}

int main(void) {
    int good = 0, bad = 0;
    long total = 0;
    for (unsigned i = 0; i < sizeof readings / sizeof readings[0]; i++) {
        if (validate(&readings[i])) {
            printf("ok %-9s %5d\n", readings[i].sensor, readings[i].value);
            good++;
            total += readings[i].value;
        } else
            bad++;
    }
    fputs("stderr: summary follows on stdout\n", stderr);
    printf("good %d bad %d total %ld\n", good, bad, total);
    for (int i = 0; i < 5; i++)
        fputc('0' + i, stderr);
    fputc('\n', stderr);
    fprintf(stderr, "%s %d %.2f %x\n", "formatted", -17, 2.5, 255u);
    fprintf(stdout, "stdout via fprintf\n");
    fflush(stdout);
    fprintf(stderr, "long stderr line:");
    for (int i = 0; i < 40; i++)
        fprintf(stderr, " %d", i * i);
    fprintf(stderr, "\n");
    return 0;
}
