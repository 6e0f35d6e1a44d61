/* a kernel source larger than --max-file-size 300 */
void f0(const void *io) { (void)io; }
void f1(const void *io) { (void)io; }
void f2(const void *io) { (void)io; }
void f3(const void *io) { (void)io; }
void f4(const void *io) { (void)io; }
void f5(const void *io) { (void)io; }
void f6(const void *io) { (void)io; }
void f7(const void *io) { (void)io; }
void f8(const void *io) { (void)io; }
void f9(const void *io) { (void)io; }
void f10(const void *io) { (void)io; }
void f11(const void *io) { (void)io; }
