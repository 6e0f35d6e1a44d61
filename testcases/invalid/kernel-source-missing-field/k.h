void f(void);
