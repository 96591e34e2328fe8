/* An endless loop: only --timeout, SIGINT or --max-cycles stops it. */
volatile unsigned counter;

int main(void) {
    for (;;)
        counter++;
}
