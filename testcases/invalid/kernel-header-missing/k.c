void f(void);
void f(void) {}
