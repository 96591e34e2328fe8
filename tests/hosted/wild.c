/* A call through a pointer to nowhere: the fault names no function. */
typedef void fn(void);

int main(int argc, char **argv) {
    (void)argv;
    fn *f = (fn *)(0x123400 + argc * 0x56);
    f();
    return 0;
}
