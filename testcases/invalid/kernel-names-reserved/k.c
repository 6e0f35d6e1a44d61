void f(const void *io) { (void)io; }
