/*
 * ir/names.c - names the frontend and the backend judge alike: UTF-8 text (what JSON can
 * hold) and the C names a kernel may not have (docs/kernels.md).
 *
 * The generated code calls every kernel through a name of tgc's own (tgc_kernel_NAME)
 * and compiles the kernel source with NAME defined as that name (backend/emit_c.c,
 * kernels.c), so a kernel name meets the user's own code and the C headers it includes,
 * never tgc's identifiers or another library's symbols.  What is refused is what cannot
 * be a macro and function name in a C11 program that includes any standard header:
 * keywords (C11 and C23), identifiers reserved by C11 7.1.3 (a leading underscore; every
 * identifier of the standard library; the macro patterns of its headers, INT64_C,
 * PRId64, E2BIG ...), tgc's own prefixes tgc_ and TGC_, and the fields of tgc_io.
 */
#include <stdio.h>
#include <string.h>

#include "ir.h"

static const char *const keywords =
    /* C11 */
    " auto break case char const continue default do double else enum extern float for"
    " goto if inline int long register restrict return short signed sizeof static struct"
    " switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool"
    " _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local"
    /* C23, and extensions every compiler knows */
    " alignas alignof bool constexpr false nullptr static_assert thread_local true typeof"
    " typeof_unqual asm ";

/* The identifiers of the C11 standard library (functions, macros, types, objects), by
 * header; the macro patterns and the names of <threads.h> and <stdatomic.h> are matched
 * by prefix below. */
static const char *const library =
    /* assert.h */
    " assert"
    /* complex.h */
    " complex imaginary I CMPLX CMPLXF CMPLXL cacos cacosf cacosl casin casinf casinl"
    " catan catanf catanl ccos ccosf ccosl csin csinf csinl ctan ctanf ctanl cacosh"
    " cacoshf cacoshl casinh casinhf casinhl catanh catanhf catanhl ccosh ccoshf ccoshl"
    " csinh csinhf csinhl ctanh ctanhf ctanhl cexp cexpf cexpl clog clogf clogl cabs"
    " cabsf cabsl cpow cpowf cpowl csqrt csqrtf csqrtl carg cargf cargl cimag cimagf"
    " cimagl conj conjf conjl cproj cprojf cprojl creal crealf creall"
    /* ctype.h */
    " isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace"
    " isupper isxdigit tolower toupper"
    /* errno.h */
    " errno"
    /* fenv.h */
    " fenv_t fexcept_t feclearexcept fegetexceptflag feraiseexcept fesetexceptflag"
    " fetestexcept fegetround fesetround fegetenv feholdexcept fesetenv feupdateenv"
    /* float.h */
    " DECIMAL_DIG"
    /* inttypes.h */
    " imaxdiv_t imaxabs imaxdiv strtoimax strtoumax wcstoimax wcstoumax"
    /* iso646.h */
    " and and_eq bitand bitor compl not not_eq or or_eq xor xor_eq"
    /* limits.h */
    " CHAR_BIT SCHAR_MIN SCHAR_MAX UCHAR_MAX CHAR_MIN CHAR_MAX MB_LEN_MAX SHRT_MIN"
    " SHRT_MAX USHRT_MAX INT_MIN INT_MAX UINT_MAX LONG_MIN LONG_MAX ULONG_MAX LLONG_MIN"
    " LLONG_MAX ULLONG_MAX"
    /* locale.h */
    " lconv setlocale localeconv"
    /* math.h */
    " float_t double_t HUGE_VAL HUGE_VALF HUGE_VALL INFINITY NAN MATH_ERRNO"
    " MATH_ERREXCEPT math_errhandling fpclassify isfinite isinf isnan isnormal signbit"
    " isgreater isgreaterequal isless islessequal islessgreater isunordered"
    /* setjmp.h */
    " jmp_buf setjmp longjmp"
    /* signal.h */
    " sig_atomic_t signal raise"
    /* stdalign.h, stdbool.h, stdnoreturn.h */
    " noreturn"
    /* stdarg.h */
    " va_list va_start va_arg va_copy va_end"
    /* stddef.h */
    " ptrdiff_t size_t max_align_t wchar_t NULL offsetof"
    /* stdint.h (the int and INT patterns are below) */
    " intptr_t uintptr_t intmax_t uintmax_t PTRDIFF_MIN PTRDIFF_MAX SIZE_MAX WCHAR_MIN"
    " WCHAR_MAX WINT_MIN WINT_MAX"
    /* stdio.h */
    " FILE fpos_t BUFSIZ EOF FOPEN_MAX FILENAME_MAX L_tmpnam SEEK_CUR SEEK_END SEEK_SET"
    " TMP_MAX stderr stdin stdout remove rename tmpfile tmpnam fclose fflush fopen "
    "freopen"
    " setbuf setvbuf fprintf fscanf printf scanf snprintf sprintf sscanf vfprintf"
    " vfscanf vprintf vscanf vsnprintf vsprintf vsscanf fgetc fgets fputc fputs getc"
    " getchar gets putc putchar puts ungetc fread fwrite fgetpos fseek fsetpos ftell"
    " rewind clearerr feof ferror perror"
    /* stdlib.h */
    " div_t ldiv_t lldiv_t EXIT_FAILURE EXIT_SUCCESS RAND_MAX MB_CUR_MAX atof atoi atol"
    " atoll strtod strtof strtold strtol strtoll strtoul strtoull rand srand"
    " aligned_alloc calloc free malloc realloc abort atexit at_quick_exit exit getenv"
    " quick_exit system bsearch qsort abs labs llabs div ldiv lldiv mblen mbtowc wctomb"
    " mbstowcs wcstombs"
    /* string.h */
    " memcpy memmove strcpy strncpy strcat strncat memcmp strcmp strcoll strncmp strxfrm"
    " memchr strchr strcspn strpbrk strrchr strspn strstr strtok memset strerror strlen"
    /* time.h */
    " clock_t time_t timespec tm CLOCKS_PER_SEC clock difftime mktime time timespec_get"
    " asctime ctime gmtime localtime strftime"
    /* uchar.h */
    " char16_t char32_t mbrtoc16 c16rtomb mbrtoc32 c32rtomb"
    /* wchar.h */
    " wint_t mbstate_t WEOF fwprintf fwscanf swprintf swscanf vfwprintf vfwscanf"
    " vswprintf vswscanf vwprintf vwscanf wprintf wscanf fgetwc fgetws fputwc fputws "
    "fwide"
    " getwc getwchar putwc putwchar ungetwc wcstod wcstof wcstold wcstol wcstoll wcstoul"
    " wcstoull wcscpy wcsncpy wmemcpy wmemmove wcscat wcsncat wcscmp wcscoll wcsncmp"
    " wcsxfrm wmemcmp wcschr wcscspn wcspbrk wcsrchr wcsspn wcsstr wcstok wmemchr wcslen"
    " wmemset wcsftime btowc wctob mbsinit mbrlen mbrtowc wcrtomb mbsrtowcs wcsrtombs"
    /* wctype.h */
    " wctrans_t wctype_t iswalnum iswalpha iswblank iswcntrl iswdigit iswgraph iswlower"
    " iswprint iswpunct iswspace iswupper iswxdigit iswctype wctype towlower towupper"
    " towctrans wctrans"
    /* threads.h, stdatomic.h (besides their prefixes) */
    " call_once once_flag ONCE_FLAG_INIT TSS_DTOR_ITERATIONS kill_dependency"
    " memory_order ";

/* The math.h functions, each also with the suffixes f and l. */
static const char *const math =
    " acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1"
    " frexp ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow"
    " sqrt erf erfc lgamma tgamma ceil floor nearbyint rint lrint llrint round lround"
    " llround trunc fmod remainder remquo copysign nan nextafter nexttoward fdim fmax"
    " fmin fma ";

/* Whether the n bytes at w are one of the blank-separated words of list. */
static bool
in_list(const char *list, const char *w, size_t n)
{
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        size_t k = strcspn(p, " ");
        if (k == n && memcmp(p, w, n) == 0)
            return true;
        p += k;
    }
    return false;
}

bool
ir_c_keyword(const char *s)
{
    return *s && in_list(keywords, s, strlen(s));
}

static bool
starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool
ends(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool
upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static bool
lower(char c)
{
    return c >= 'a' && c <= 'z';
}

static bool
digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The macro and type patterns of C11 7.1.3 and 7.31 (future library directions). */
static bool
reserved_pattern(const char *s)
{
    /* <stdint.h>: intN_t, uintN_t, int_leastN_t ...; INTN_MAX, UINTN_C ... */
    if ((starts(s, "int") || starts(s, "uint")) && ends(s, "_t"))
        return true;
    if ((starts(s, "INT") || starts(s, "UINT")) &&
        (ends(s, "_MAX") || ends(s, "_MIN") || ends(s, "_C")))
        return true;
    /* <errno.h>: E and a digit or an upper-case letter */
    if (s[0] == 'E' && (digit(s[1]) || upper(s[1])))
        return true;
    /* <inttypes.h>: PRI and SCN and a lower-case letter or X */
    if ((starts(s, "PRI") || starts(s, "SCN")) && (lower(s[3]) || s[3] == 'X'))
        return true;
    /* <signal.h>: SIG and an upper-case letter, SIG_ and an upper-case letter */
    if (starts(s, "SIG") && (upper(s[3]) || (s[3] == '_' && upper(s[4]))))
        return true;
    /* <fenv.h> FE_, <locale.h> LC_, <float.h> FLT_ DBL_ LDBL_, <time.h> TIME_,
     * <stdatomic.h> ATOMIC_: each and an upper-case letter (float.h: any) */
    static const char *const up[] = {"FE_", "LC_", "TIME_", "ATOMIC_"};
    for (int i = 0; i < 4; i++)
        if (starts(s, up[i]) && upper(s[strlen(up[i])]))
            return true;
    if (starts(s, "FLT_") || starts(s, "DBL_") || starts(s, "LDBL_"))
        return true;
    /* <stdatomic.h>, <threads.h>: atomic_, memory_order_, cnd_, mtx_, thrd_, tss_ and a
     * lower-case letter */
    static const char *const low[] = {"atomic_", "memory_order_", "cnd_",
                                      "mtx_",    "thrd_",         "tss_"};
    for (int i = 0; i < 6; i++)
        if (starts(s, low[i]) && lower(s[strlen(low[i])]))
            return true;
    return false;
}

static bool
library_name(const char *s)
{
    size_t n = strlen(s);
    if (in_list(library, s, n) || in_list(math, s, n))
        return true;
    /* sinf, sinl ... */
    if (n > 1 && (s[n - 1] == 'f' || s[n - 1] == 'l') && in_list(math, s, n - 1))
        return true;
    return reserved_pattern(s);
}

const char *
ir_kernel_name_problem(const char *s)
{
    if (!s || !*s || digit(*s))
        return "is not a C identifier";
    for (const char *p = s; *p; p++)
        if (!(lower(*p) || upper(*p) || digit(*p) || *p == '_'))
            return "is not a C identifier";
    if (ir_c_keyword(s))
        return "is a C keyword";
    if (s[0] == '_')
        return "is reserved in C (it begins with an underscore)";
    if (starts(s, "tgc_") || starts(s, "TGC_"))
        return "is reserved for the code tgc generates (it begins with tgc_ or TGC_)";
    if (library_name(s))
        return "is reserved in C (a name of the standard library)";
    /* the kernel source is compiled with the kernel's name defined as a macro, after
     * tgc_kernel.h: a field of tgc_io would be renamed in the kernel's io->field */
    if (in_list(" nin nout in in_bytes out out_bytes iteration output firing firings ", s,
                strlen(s)))
        return "is the name of a field of tgc_io (the kernel interface)";
    return NULL;
}

bool
ir_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        int n = c < 0x80             ? 0
                : (c & 0xe0) == 0xc0 ? 1
                : (c & 0xf0) == 0xe0 ? 2
                : (c & 0xf8) == 0xf0 ? 3
                                     : -1;
        if (n < 0 || c == 0xc0 || c == 0xc1 || c > 0xf4)
            return false;
        uint32_t cp = n == 0 ? c : c & (0x3fu >> n);
        for (int k = 1; k <= n; k++) {
            if ((p[k] & 0xc0) != 0x80)
                return false;
            cp = (cp << 6) | (p[k] & 0x3fu);
        }
        /* overlong forms, surrogates and code points above U+10FFFF */
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
            return false;
        p += n + 1;
    }
    return true;
}

int
ir_ctl_escape(unsigned char c, char esc[5])
{
    if (c >= 0x20 && c != 0x7f)
        return 0;
    static const char hex[] = "0123456789abcdef";
    esc[0] = '\\';
    if (c == '\n' || c == '\t' || c == '\r') {
        esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        esc[2] = 0;
        return 2;
    }
    esc[1] = 'x';
    esc[2] = hex[c >> 4];
    esc[3] = hex[c & 15];
    esc[4] = 0;
    return 4;
}

const char *
ir_escaped(Arena *a, const char *s)
{
    if (!s)
        return s;
    size_t n = 0;
    char esc[5];
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += ir_ctl_escape(*p, esc) ? 4 : 1;
    if (n == strlen(s))
        return s;
    char *out = arena_alloc(a, n + 1), *w = out;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int k = ir_ctl_escape(*p, esc);
        if (k) {
            memcpy(w, esc, (size_t)k);
            w += k;
        } else {
            *w++ = (char)*p;
        }
    }
    *w = 0;
    return out;
}

char *
ir_shown(Arena *a, const char *s, size_t max)
{
    bool utf8 = ir_utf8_valid(s);
    size_t n = strlen(s);
    bool cut = n > max;
    if (cut)
        for (n = max; n > 0 && utf8 && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
            ; /* not inside a character */
    char *out = arena_alloc(a, 4 * n + 4), *w = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int k = ir_ctl_escape(c, w); /* the one escape of a control character */
        if (k)
            w += k;
        else if (c == '"' || c == '\\' || (c >= 0x80 && !utf8))
            w += sprintf(w, "\\x%02x", c);
        else
            *w++ = (char)c;
    }
    strcpy(w, cut ? "..." : "");
    return out;
}
