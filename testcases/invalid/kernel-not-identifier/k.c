void fir_taps(void);
void fir_taps(void) {}
