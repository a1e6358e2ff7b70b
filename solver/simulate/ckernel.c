/*
 * solver.simulate.ckernel: the dealing kernel of solver/simulate/kernel.py, compiled ahead of time.
 *
 * deal_shoes(table, n_shoes, rng, counts) -> coups dealt
 *
 * The same function as kernel.deal_shoes (its docstring states the rules and the tallies), line for
 * line, reading the fields of its two structs by name (kernel.Table: codes, value_of, max_coups, ptab,
 * btab, burn_mode, burn_count, cut, extra_coup, comp_len, next_len; kernel.Counts: pos_counts,
 * first_detail, first_cards, burn_winner, moments, first_pairs, serial, comp, next_vec, next_cc,
 * shoe_counts): the same uniforms in the same order from the same generator, so one seed gives identical
 * tallies; tests/test_simulate.py holds the three (this one, numba's, plain Python) equal bit for bit.
 *
 * Random numbers. ``rng`` is a numpy.random.Generator; its bit generator exposes numpy's C interface
 * (``bit_generator.capsule``, a PyCapsule named "BitGenerator" holding a bitgen_t, declared in numpy's
 * numpy/random/bitgen.h and repeated below). A card is drawn from the m cards not yet placed as
 * ``rng.integers(0, m)`` (numpy's Lemire method on ``next_uint32``: see pick() and kernel.card_pick),
 * a mixed decision from ``next_double``, ``rng.random()``: the same numbers in Python, in Cython and
 * in numba, in the order kernel.py's "random stream" states (the burn, the positions the coups can
 * reach shuffled ahead, the mixed decisions as they come). The generator's lock is held for the whole call and the GIL is released while dealing.
 *
 * Arrays arrive through the buffer protocol (C-contiguous int64 and float64), so building this needs
 * Python's headers and a C compiler, not numpy's. Every index the loop can form is checked once on
 * entry (shapes, card codes, values), and the shoe is checked to hold the next coup before each coup,
 * so no input can make the loop read or write outside its arrays.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* numpy/random/bitgen.h (numpy >= 1.17): the C interface of every numpy bit generator. */
typedef struct bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

enum { BURN_NONE = 0, BURN_FIXED = 1, BURN_TURN = 2 }; /* kernel.BurnMode's codes */
#define N_DETAIL 800
#define N_MOMENTS 8
#define STOOD 10
#define NO_TURN 10
#define COUP_CARDS 6 /* the most cards one coup deals */
#define N_CODES 13   /* the most card codes (13 ranks) */
#define N_SHOE_COUNTS 4
typedef uint16_t card_t; /* not a char type: stores to the shoe cannot alias the generator or the tallies */
/* A card in the shoe is its code (rank, or value) times 16 plus its point value: the loop reads the
 * value with a mask, not a table, and two cards have equal codes exactly when they are equal. */
#define CODE(card) ((card) >> 4)
#define VALUE(card) ((card) & 15)

typedef struct {
    Py_ssize_t n;
    int64_t n_shoes, max_coups;
    const double *ptab, *btab;
    int burn_mode;
    int64_t burn_count, cut;
    int extra_coup;
    int64_t *pos_counts, *first_detail, *first_cards, *burn_winner, *moments;
    int64_t *first_pairs, *serial, *comp, *next_vec, *next_cc, *shoe_counts;
    int64_t comp_len, next_len;
    uint8_t pcode[100], bcode[1100];
} args_t;

/* The uniforms. Through numpy's C interface (any bit generator), or, for numpy's PCG64, the same
 * generator stepped inline from the state numpy publishes (``bit_generator.state``) and written back
 * after the call. PCG64 is O'Neill's PCG XSL-RR 128/64 (M. E. O'Neill, "PCG: A family of simple fast
 * space-efficient statistically good algorithms for random number generation", HMC-CS-2014-0905;
 * numpy/random/src/pcg64/pcg64.h): state <- state * M + inc (mod 2^128), then the output
 * rotr64(high ^ low, high >> 58) of the new state; numpy's double is (output >> 11) * 2^-53, its
 * 32-bit draw the output's low half, the high half kept (``has_uint32``, ``uinteger``, published and
 * written back too) for the next. Inline, the state stays in registers instead of going through a call
 * that clobbers them; the stream is the same, and the tests hold both paths to numpy's own. */
#if defined(__SIZEOF_INT128__)
#define HAVE_PCG64 1
typedef __uint128_t u128;
#define PCG64_MULT (((u128)2549297995355413924ULL << 64) | 4865540595714422341ULL)
#else
#define HAVE_PCG64 0
#endif

#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ALWAYS_INLINE static inline
#define UNLIKELY(x) (x)
#endif

/* How the uniforms come: through the bitgen_t, or PCG64 stepped inline. */
enum { VIA_BITGEN = 0, PCG64_INLINE = 1 };
#define TWO_M53 (1.0 / 9007199254740992.0)

typedef struct {
    bitgen_t *bg;
#if HAVE_PCG64
    u128 state, inc;
    uint32_t uinteger; /* numpy's buffered upper half of an output (has_uint32, uinteger) */
    int has_uint32;
#endif
} rng_t;

#if HAVE_PCG64
/* The next 64-bit output of PCG64 (numpy's pcg64_next64). */
ALWAYS_INLINE uint64_t pcg64_next64(rng_t *r) {
    r->state = r->state * PCG64_MULT + r->inc;
    uint64_t hi = (uint64_t)(r->state >> 64), x = hi ^ (uint64_t)r->state;
    unsigned rot = (unsigned)(hi >> 58);
    return (x >> rot) | (x << ((-rot) & 63u));
}
#endif

/* numpy's next_double: (output >> 11) 2^-53, what rng.random() returns. */
ALWAYS_INLINE double uniform(rng_t *r, const int how) {
#if HAVE_PCG64
    if (how != VIA_BITGEN)
        return (double)(pcg64_next64(r) >> 11) * TWO_M53;
#endif
    (void)how;
    return r->bg->next_double(r->bg->state);
}

/* numpy's next_uint32: the low half of a 64-bit output, its high half kept for the next call
 * (numpy/random/src/pcg64/pcg64.h, pcg64_next32); a double in between leaves the half kept. */
ALWAYS_INLINE uint32_t next_uint32(rng_t *r, const int how) {
#if HAVE_PCG64
    if (how != VIA_BITGEN) {
        if (r->has_uint32) {
            r->has_uint32 = 0;
            return r->uinteger;
        }
        uint64_t x = pcg64_next64(r);
        r->has_uint32 = 1;
        r->uinteger = (uint32_t)(x >> 32);
        return (uint32_t)x;
    }
#endif
    (void)how;
    return r->bg->next_uint32(r->bg->state);
}

/* A uniform index in 0..m-1 (1 <= m < 2^32): rng.integers(m), numpy's buffered_bounded_lemire_uint32
 * (D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019): the high 32
 * bits of x m for a 32-bit x, x drawn again while the low 32 bits fall below 2^32 mod m (exactly
 * uniform; the test ``l < m`` first, so the division runs about m times in 2^32 draws); nothing is
 * drawn for m = 1, as in numpy. */
ALWAYS_INLINE int64_t pick(rng_t *r, int64_t m, const int how) {
    const uint32_t mm = (uint32_t)m;
    if (UNLIKELY(mm == 1)) /* numpy draws nothing for a range of one */
        return 0;
    uint64_t p = (uint64_t)next_uint32(r, how) * mm;
    uint32_t low = (uint32_t)p;
    if (UNLIKELY(low < mm)) {
        const uint32_t threshold = (uint32_t)(UINT32_MAX - (mm - 1)) % mm;
        while (low < threshold) {
            p = (uint64_t)next_uint32(r, how) * mm;
            low = (uint32_t)p;
        }
    }
    return (int64_t)(p >> 32);
}

/* One online Fisher-Yates step: a card drawn uniformly from cards[top..n-1], swapped to the top. */
#define DRAW(out)                                                                   \
    do {                                                                            \
        int64_t j_ = top + pick(r, n - top, how);                                   \
        card_t c_ = cards[j_];                                                      \
        cards[j_] = cards[top];                                                     \
        cards[top] = c_;                                                            \
        top++;                                                                      \
        (out) = c_;                                                                 \
    } while (0)

/* Shuffle positions t..ahead-1 of cards[0..n-1] (the Fisher-Yates steps DRAW would take there, in the same
 * order, with the same picks). With PCG64 inline, two picks come from one output (its low half, then its
 * high half, as numpy's next_uint32 gives them) without a branch on the kept half; where Lemire's method
 * would test for a rejection, or for the last two positions (a pick from one card draws nothing), the
 * plain pick() takes over. The body is written once, for the kernel (PLACE swaps the card drawn for
 * position pos, at j, into place) and for the tests (PLACE records j - pos: see shuffle_picks). */
#if HAVE_PCG64
#define SHUFFLE_PAIRS(PLACE)                                                                              \
    do {                                                                                                  \
        if (how != VIA_BITGEN) {                                                                          \
            while (r->has_uint32 && t < ahead) { /* till no half is kept (a rejection may keep one) */     \
                PLACE(t, t + pick(r, n - t, how));                                                        \
                t++;                                                                                      \
            }                                                                                             \
            const int64_t pairs_end = ahead < n - 1 ? ahead : n - 1;                                      \
            while (t + 1 < pairs_end) {                                                                   \
                const uint64_t o = pcg64_next64(r);                                                       \
                const uint32_t m0 = (uint32_t)(n - t), m1 = m0 - 1;                                       \
                const uint64_t q0 = (uint64_t)(uint32_t)o * m0, q1 = (o >> 32) * m1;                      \
                r->uinteger = (uint32_t)(o >> 32); /* where numpy leaves the high half, taken or kept */  \
                if (UNLIKELY(((uint32_t)q0 < m0) | ((uint32_t)q1 < m1))) { /* keep it: pick() decides */ \
                    r->has_uint32 = 1;                                                                    \
                    uint64_t p_ = q0;                                                                     \
                    if ((uint32_t)p_ < m0) {                                                              \
                        const uint32_t threshold = (uint32_t)(UINT32_MAX - (m0 - 1)) % m0;                \
                        while ((uint32_t)p_ < threshold)                                                  \
                            p_ = (uint64_t)next_uint32(r, how) * m0;                                      \
                    }                                                                                     \
                    PLACE(t, t + (int64_t)(p_ >> 32));                                                    \
                    t++;                                                                                  \
                    break;                                                                                \
                }                                                                                         \
                PLACE(t, t + (int64_t)(q0 >> 32));                                                        \
                PLACE(t + 1, t + 1 + (int64_t)(q1 >> 32));                                                \
                t += 2;                                                                                   \
            }                                                                                             \
        }                                                                                                 \
    } while (0)
#else
#define SHUFFLE_PAIRS(PLACE) ((void)0)
#endif
#define SHUFFLE_BODY(PLACE)                                                                               \
    do {                                                                                                  \
        SHUFFLE_PAIRS(PLACE);                                                                             \
        for (; t < ahead; t++)                                                                            \
            PLACE(t, t + pick(r, n - t, how));                                                            \
    } while (0)

#define SWAP_TO(pos, j)                                                                                   \
    do {                                                                                                  \
        const int64_t jj_ = (j), pp_ = (pos);                                                             \
        const card_t c_ = cards[jj_];                                                                     \
        cards[jj_] = cards[pp_];                                                                          \
        cards[pp_] = c_;                                                                                  \
    } while (0)
ALWAYS_INLINE void shuffle_ahead(rng_t *r, card_t *cards, int64_t t, int64_t ahead, int64_t n, const int how) {
    SHUFFLE_BODY(SWAP_TO);
}
#undef SWAP_TO

#define RECORD(pos, j) (out[(pos) - t0] = (j) - (pos))
static void shuffle_picks_into(rng_t *r, int64_t t, int64_t ahead, int64_t n, const int how, int64_t *out) {
    const int64_t t0 = t;
    SHUFFLE_BODY(RECORD);
}
#undef RECORD

/* The next card of the shuffled run. */
#define NEXT(out) ((out) = cards[top++])

#define MOD10(t) ((t) - 10 * ((t) >= 10)) /* t mod 10 for 0 <= t <= 18 */

/* A cell of a draw table, read once on entry: q >= 1 draws, 0 < q < 1 draws when a fresh uniform
 * falls below q, anything else (0, or not a number) stands: the Python kernel's
 * ``q >= 1.0 or (q > 0.0 and rng.random() < q)``, which draws a uniform only for a mixed cell. */
enum { STAND = 0, DRAWS = 1, MIXED = 2 };
static uint8_t cell_code(double q) { return q >= 1.0 ? DRAWS : (q > 0.0 && q < 1.0 ? MIXED : STAND); }

ALWAYS_INLINE int decide(rng_t *r, int code, double q, const int how) {
    if (UNLIKELY(code == MIXED))
        return uniform(r, how) < q;
    return code;
}

/* Returns the coups dealt, or -1 when the shoe ran out (the table's parameters cannot hold a coup). */
/* ``counting``: keep the tallies of the tests of structure, counting every card (compiled in only where asked for). */
ALWAYS_INLINE int64_t deal(const args_t *a, card_t *cards, rng_t *rng, const int how, const int counting) {
    rng_t rr = *rng, *const r = &rr; /* a local copy: the compiler keeps the state in registers */
    const int64_t n = a->n;
    const double *ptab = a->ptab, *btab = a->btab;
    int64_t *pos_counts = a->pos_counts;
    const int64_t last = n - a->cut; /* cards at index >= last lie behind the cut card */
    int64_t total_coups = 0;
    int64_t x[N_MOMENTS];
    int64_t dealt[N_CODES], head[N_CODES] = {0}, before[N_CODES] = {0}; /* see kernel.py: the shoe tallies */
    int64_t before_k = -1;
    int before_w = -1;
    for (int64_t shoe = 0; shoe < a->n_shoes; shoe++) {
        int64_t top = 0, n_dealt = 0;
        if (counting)
            memset(dealt, 0, sizeof dealt);
        int turned = NO_TURN;
        int64_t n_burn = 0;
        card_t c;
        if (a->burn_mode == BURN_FIXED) {
            n_burn = a->burn_count;
        } else if (a->burn_mode == BURN_TURN) {
            DRAW(c);
            turned = VALUE(c);
            n_burn = turned == 0 ? 10 : turned;
        }
        if (n_burn > n - top) {
            total_coups = -1;
            break;
        }
        for (int64_t b = 0; b < n_burn; b++)
            DRAW(c);
        /* the positions the coups can reach (the coup in progress when the cut card appears, one more),
         * shuffled before the first coup: see kernel.py */
        int64_t ahead = (last > top ? last : top) + 2 * COUP_CARDS; /* a first coup behind the cut card too */
        if (a->max_coups < n && ahead > top + a->max_coups * COUP_CARDS)
            ahead = top + a->max_coups * COUP_CARDS;
        if (ahead > n)
            ahead = n;
        shuffle_ahead(r, cards, top, ahead, n, how);
        memset(x, 0, sizeof x);
        x[0] = 1;
        int64_t coup = 0;
        int stop_after = 0;
        while (coup < a->max_coups) {
            if (n - top < COUP_CARDS) {
                total_coups = -1;
                goto out;
            }
            const int64_t start = top;
            int p1, b1, p2, b2;
            NEXT(p1);
            NEXT(b1);
            NEXT(p2);
            NEXT(b2);
            const int c1 = p1, c2 = b1, c3 = p2, c4 = b2; /* the codes: for the first coup's pairs */
            p1 = VALUE(p1);
            b1 = VALUE(b1);
            p2 = VALUE(p2);
            b2 = VALUE(b2);
            int pt = MOD10(p1 + p2);
            int bt = MOD10(b1 + b2);
            const int natural = (pt >= 8) | (bt >= 8);
            int p_drew = 0, b_drew = 0;
            if (!natural) {
                int seen = STOOD;
                if (decide(r, a->pcode[p1 * 10 + p2], ptab[p1 * 10 + p2], how)) {
                    NEXT(c);
                    seen = VALUE(c);
                    pt = MOD10(pt + seen);
                    p_drew = 1;
                }
                const int cell = (b1 * 10 + b2) * 11 + seen;
                if (decide(r, a->bcode[cell], btab[cell], how)) {
                    NEXT(c);
                    bt = MOD10(bt + VALUE(c));
                    b_drew = 1;
                }
            }
            const int w = 2 - (pt > bt) - 2 * (bt > pt); /* 0 banker, 1 player, 2 tie */
            pos_counts[coup * 3 + w] += 1;
            x[1 + w] += 1;
            if (coup == 0) {
                a->first_detail[pt * 80 + bt * 8 + p_drew * 4 + b_drew * 2 + natural] += 1;
                a->first_cards[p1] += 1;
                a->first_cards[b1] += 1;
                a->first_cards[p2] += 1;
                a->first_cards[b2] += 1;
                a->burn_winner[turned * 3 + w] += 1;
                x[5 + w] += 1;
                if (counting) {
                    a->first_pairs[(c1 == c2) + (c1 == c3) + (c1 == c4) + (c2 == c3) + (c2 == c4) + (c3 == c4)] += 1;
                    if (before_w >= 0)
                        a->serial[before_w * 3 + w] += 1;
                    before_w = w;
                }
            }
            for (int64_t i = start; counting && i < top; i++) { /* the coup's cards: start..top-1, in order */
                dealt[CODE(cards[i])]++;
                n_dealt++;
                if (UNLIKELY(n_dealt == a->next_len))
                    memcpy(head, dealt, sizeof head);
                if (UNLIKELY(n_dealt == a->comp_len)) {
                    for (int k = 0; k < N_CODES; k++) {
                        a->comp[k] += dealt[k];
                        a->comp[N_CODES + k] += dealt[k] * dealt[k];
                    }
                    a->shoe_counts[0] += 1;
                }
            }
            coup++;
            if (stop_after)
                break;
            if (top > last) { /* the cut card has appeared during this coup */
                if (a->extra_coup)
                    stop_after = 1;
                else
                    break;
            }
        }
        x[4] = coup;
        total_coups += coup;
        if (counting && before_k >= 0 && n_dealt >= a->next_len) {
            for (int k = 0; k < N_CODES; k++) {
                a->next_vec[k] += before[k] * head[k];
                a->next_vec[N_CODES + k] += before[k];
                a->next_vec[2 * N_CODES + k] += before_k * head[k];
                a->next_vec[3 * N_CODES + k] += before_k * before[k];
                for (int m = 0; m < N_CODES; m++)
                    a->next_cc[k * N_CODES + m] += before[k] * before[m];
            }
            a->shoe_counts[1] += 1;
            a->shoe_counts[2] += before_k;
            a->shoe_counts[3] += before_k * before_k;
        }
        if (counting) {
            memcpy(before, dealt, sizeof before);
            before_k = n_dealt;
        }
        for (int i = 0; i < N_MOMENTS; i++)
            for (int k = i; k < N_MOMENTS; k++)
                a->moments[i * N_MOMENTS + k] += x[i] * x[k];
    }
out:
    *rng = rr;
    return total_coups;
}

/* One copy of the loop for each way the uniforms come, with and without the counting of cards. */
typedef int64_t (*dealer_t)(const args_t *, card_t *, rng_t *);
#define DEALER(name, how, counting) \
    static int64_t name(const args_t *a, card_t *cards, rng_t *rng) { return deal(a, cards, rng, how, counting); }
DEALER(deal_bitgen, VIA_BITGEN, 0)
DEALER(deal_bitgen_counting, VIA_BITGEN, 1)
#if HAVE_PCG64
DEALER(deal_pcg64, PCG64_INLINE, 0)
DEALER(deal_pcg64_counting, PCG64_INLINE, 1)
#endif

/* A C-contiguous buffer of int64 ('i') or float64 ('f') of the given shape (-1: any length). */
static int get_array(PyObject *obj, Py_buffer *view, const char *name, char kind, int writable, int ndim,
                     const Py_ssize_t *shape) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s: a C-contiguous%s array was expected", name, writable ? " writable" : "");
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '@' || *f == '=' || *f == '<')
        f++;
    int ok = view->itemsize == 8 && f[0] != '\0' && f[1] == '\0' &&
             (kind == 'f' ? f[0] == 'd' : (f[0] == 'l' || f[0] == 'q'));
    if (ok && view->ndim != ndim)
        ok = 0;
    for (int d = 0; ok && d < ndim; d++)
        if (shape[d] >= 0 && view->shape[d] != shape[d])
            ok = 0;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: a %d-dimensional %s array of the kernel's shape was expected", name, ndim,
                     kind == 'f' ? "float64" : "int64");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The generator behind ``rng``, held for one call: its lock is acquired, its bitgen_t read, and for
 * numpy's PCG64 its published state read (and written back by release_source). */
typedef struct {
    PyObject *bit_generator, *lock, *state;
    int locked, pcg64;
} source_t;

#if HAVE_PCG64
static int u128_of(PyObject *x, u128 *out) {
    PyObject *shift = PyLong_FromLong(64), *high = shift ? PyNumber_Rshift(x, shift) : NULL;
    Py_XDECREF(shift);
    if (high == NULL)
        return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLongMask(high), lo = PyLong_AsUnsignedLongLongMask(x);
    Py_DECREF(high);
    if (PyErr_Occurred())
        return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

static PyObject *long_of(u128 x) {
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(x >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)x), *shift = PyLong_FromLong(64);
    PyObject *high = (hi && shift) ? PyNumber_Lshift(hi, shift) : NULL, *out = (high && lo) ? PyNumber_Or(high, lo) : NULL;
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    Py_XDECREF(high);
    return out;
}

/* Is ``obj`` exactly numpy.random.PCG64 (whose algorithm uniform() repeats)? */
static int is_pcg64(PyObject *obj) {
    PyObject *random = PyImport_ImportModule("numpy.random");
    PyObject *type = random ? PyObject_GetAttrString(random, "PCG64") : NULL;
    Py_XDECREF(random);
    if (type == NULL) {
        PyErr_Clear();
        return 0;
    }
    int same = (PyObject *)Py_TYPE(obj) == type;
    Py_DECREF(type);
    return same;
}
#endif

static int open_source(PyObject *rng, source_t *s, rng_t *r) {
    memset(s, 0, sizeof *s);
    s->bit_generator = PyObject_GetAttrString(rng, "bit_generator");
    PyObject *capsule = s->bit_generator ? PyObject_GetAttrString(s->bit_generator, "capsule") : NULL;
    r->bg = capsule ? (bitgen_t *)PyCapsule_GetPointer(capsule, "BitGenerator") : NULL;
    Py_XDECREF(capsule);
    if (r->bg == NULL) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "rng: a numpy.random.Generator was expected");
        }
        return -1;
    }
    s->lock = PyObject_GetAttrString(s->bit_generator, "lock");
    PyObject *held = s->lock ? PyObject_CallMethod(s->lock, "acquire", NULL) : NULL;
    if (held == NULL)
        return -1;
    Py_DECREF(held);
    s->locked = 1;
#if HAVE_PCG64
    if (is_pcg64(s->bit_generator)) {
        s->state = PyObject_GetAttrString(s->bit_generator, "state");
        PyObject *inner = s->state && PyDict_Check(s->state) ? PyDict_GetItemString(s->state, "state") : NULL;
        PyObject *st = inner && PyDict_Check(inner) ? PyDict_GetItemString(inner, "state") : NULL;
        PyObject *inc = inner && PyDict_Check(inner) ? PyDict_GetItemString(inner, "inc") : NULL;
        if (st == NULL || inc == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "rng: PCG64 published no state");
            return -1;
        }
        if (u128_of(st, &r->state) < 0 || u128_of(inc, &r->inc) < 0)
            return -1;
        PyObject *has = PyDict_GetItemString(s->state, "has_uint32"), *half = PyDict_GetItemString(s->state, "uinteger");
        if (has == NULL || half == NULL) {
            PyErr_SetString(PyExc_TypeError, "rng: PCG64 published no buffered half (has_uint32, uinteger)");
            return -1;
        }
        r->has_uint32 = PyObject_IsTrue(has);
        r->uinteger = (uint32_t)PyLong_AsUnsignedLongMask(half);
        if (r->has_uint32 < 0 || PyErr_Occurred())
            return -1;
        s->pcg64 = 1;
    }
#endif
    return 0;
}

/* Write PCG64's state back (when ``ok``), release the lock; returns -1 (an exception set) on failure. */
static int release_source(source_t *s, const rng_t *r, int ok) {
    int status = 0;
#if HAVE_PCG64
    if (ok && s->pcg64) {
        PyObject *inner = PyDict_GetItemString(s->state, "state"), *st = long_of(r->state);
        PyObject *has = PyLong_FromLong(r->has_uint32), *half = PyLong_FromUnsignedLong(r->uinteger);
        if (st == NULL || has == NULL || half == NULL || PyDict_SetItemString(inner, "state", st) < 0 ||
            PyDict_SetItemString(s->state, "has_uint32", has) < 0 ||
            PyDict_SetItemString(s->state, "uinteger", half) < 0 ||
            PyObject_SetAttrString(s->bit_generator, "state", s->state) < 0)
            status = -1;
        Py_XDECREF(st);
        Py_XDECREF(has);
        Py_XDECREF(half);
    }
#else
    (void)r;
    (void)ok;
#endif
    if (s->locked) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb); /* an exception already raised survives the release */
        PyObject *released = PyObject_CallMethod(s->lock, "release", NULL);
        if (released == NULL) {
            status = -1;
            if (type != NULL)
                PyErr_Clear();
        }
        Py_XDECREF(released);
        if (type != NULL)
            PyErr_Restore(type, value, tb);
    }
    Py_XDECREF(s->state);
    Py_XDECREF(s->lock);
    Py_XDECREF(s->bit_generator);
    return status;
}

enum { A_CODES, A_VALUE_OF, A_PTAB, A_BTAB, A_POS, A_DETAIL, A_CARDS, A_BURN, A_MOMENTS, A_PAIRS, A_SERIAL, A_COMP,
       A_NEXT_VEC, A_NEXT_CC, A_SHOE_COUNTS, N_ARRAYS };

/* A whole-number field of a struct, read by name (a bool reads as 0 or 1). */
static int int_field(PyObject *obj, const char *what, const char *name, long long *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (v == NULL)
        return -1;
    *out = PyLong_AsLongLong(v);
    Py_DECREF(v);
    if (*out == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "deal_shoes: %s.%s: a whole number was expected", what, name);
        return -1;
    }
    return 0;
}

static PyObject *deal_shoes(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *table, *rng, *counts_obj;
    long long n_shoes, max_coups, burn_mode, burn_count, cut, comp_len, next_len, extra_coup;
    if (!PyArg_ParseTuple(args, "OLOO:deal_shoes", &table, &n_shoes, &rng, &counts_obj))
        return NULL;
    if (int_field(table, "table", "max_coups", &max_coups) < 0 || int_field(table, "table", "burn_mode", &burn_mode) < 0 ||
        int_field(table, "table", "burn_count", &burn_count) < 0 || int_field(table, "table", "cut", &cut) < 0 ||
        int_field(table, "table", "extra_coup", &extra_coup) < 0 || int_field(table, "table", "comp_len", &comp_len) < 0 ||
        int_field(table, "table", "next_len", &next_len) < 0)
        return NULL;
    static const char *names[N_ARRAYS] = {"codes", "value_of", "ptab", "btab", "pos_counts", "first_detail",
                                          "first_cards", "burn_winner", "moments", "first_pairs", "serial", "comp",
                                          "next_vec", "next_cc", "shoe_counts"};
    const Py_ssize_t any[1] = {-1}, p_shape[2] = {10, 10}, b_shape[3] = {10, 10, 11}, pos_shape[2] = {max_coups, 3},
                     detail[1] = {N_DETAIL}, ten[1] = {10}, burn[2] = {11, 3}, mom[2] = {N_MOMENTS, N_MOMENTS},
                     seven[1] = {7}, three[2] = {3, 3}, comp[2] = {2, N_CODES}, next_vec[2] = {4, N_CODES},
                     next_cc[2] = {N_CODES, N_CODES}, counts[1] = {N_SHOE_COUNTS};
    const Py_ssize_t *shapes[N_ARRAYS] = {any, any, p_shape, b_shape, pos_shape, detail, ten, burn, mom, seven, three,
                                          comp, next_vec, next_cc, counts};
    const int ndims[N_ARRAYS] = {1, 1, 2, 3, 2, 1, 1, 2, 2, 1, 2, 2, 2, 2, 1};
    PyObject *obj[N_ARRAYS] = {NULL};
    Py_buffer view[N_ARRAYS];
    int got = 0;
    PyObject *result = NULL;
    card_t *cards = NULL;
    if (n_shoes < 0 || max_coups < 0 || burn_count < 0 || cut < 0 || comp_len < 0 || next_len < 0 ||
        burn_mode < BURN_NONE || burn_mode > BURN_TURN) {
        PyErr_SetString(PyExc_ValueError, "deal_shoes: counts must not be negative and the burn mode must be 0-2");
        return NULL;
    }
    for (; got < N_ARRAYS; got++) { /* the table's arrays (read), then the counts (added to) */
        obj[got] = PyObject_GetAttrString(got >= A_POS ? counts_obj : table, names[got]);
        char kind = (got == A_PTAB || got == A_BTAB) ? 'f' : 'i';
        if (obj[got] == NULL || get_array(obj[got], &view[got], names[got], kind, got >= A_POS, ndims[got], shapes[got]) < 0) {
            Py_XDECREF(obj[got]);
            goto done;
        }
    }
    const int64_t *codes = view[A_CODES].buf, *value_of = view[A_VALUE_OF].buf;
    const Py_ssize_t n = view[A_CODES].shape[0], n_codes = view[A_VALUE_OF].shape[0];
    if (n_codes > N_CODES) {
        PyErr_SetString(PyExc_ValueError, "deal_shoes: at most 13 card codes");
        goto done;
    }
    if (n >= (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "deal_shoes: a shoe of fewer than 2**32 cards");
        goto done;
    }
    if (cut > n) {
        PyErr_SetString(PyExc_ValueError, "deal_shoes: the cut card lies outside the shoe");
        goto done;
    }
    for (Py_ssize_t v = 0; v < n_codes; v++)
        if (value_of[v] < 0 || value_of[v] > 9) {
            PyErr_SetString(PyExc_ValueError, "deal_shoes: value_of must map every code to a value 0-9");
            goto done;
        }
    cards = PyMem_Malloc((n > 0 ? n : 1) * sizeof(card_t));
    if (cards == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (codes[i] < 0 || codes[i] >= n_codes) {
            PyErr_SetString(PyExc_ValueError, "deal_shoes: a card code has no value in value_of");
            goto done;
        }
        cards[i] = (card_t)(codes[i] << 4 | value_of[codes[i]]); /* code and value in one: see CODE, VALUE */
    }
    source_t source;
    rng_t r;
    if (open_source(rng, &source, &r) < 0) {
        release_source(&source, &r, 0);
        goto done;
    }
    args_t a = {.n = n, .n_shoes = n_shoes, .max_coups = max_coups, .ptab = view[A_PTAB].buf,
                .btab = view[A_BTAB].buf, .burn_mode = (int)burn_mode, .burn_count = burn_count, .cut = cut,
                .extra_coup = extra_coup != 0, .pos_counts = view[A_POS].buf, .first_detail = view[A_DETAIL].buf,
                .first_cards = view[A_CARDS].buf, .burn_winner = view[A_BURN].buf, .moments = view[A_MOMENTS].buf,
                .first_pairs = view[A_PAIRS].buf, .serial = view[A_SERIAL].buf, .comp = view[A_COMP].buf,
                .next_vec = view[A_NEXT_VEC].buf, .next_cc = view[A_NEXT_CC].buf,
                .shoe_counts = view[A_SHOE_COUNTS].buf, .comp_len = comp_len, .next_len = next_len};

    for (int i = 0; i < 100; i++)
        a.pcode[i] = cell_code(a.ptab[i]);
    for (int i = 0; i < 1100; i++)
        a.bcode[i] = cell_code(a.btab[i]);
    const int counting = comp_len > 0 || next_len > 0; /* the shoe tallies asked for */
    dealer_t dealer = counting ? deal_bitgen_counting : deal_bitgen;
#if HAVE_PCG64
    if (source.pcg64)
        dealer = counting ? deal_pcg64_counting : deal_pcg64;
#endif
    int64_t coups;
    Py_BEGIN_ALLOW_THREADS
    coups = dealer(&a, cards, &r);
    Py_END_ALLOW_THREADS
    if (release_source(&source, &r, 1) < 0)
        goto done;
    if (coups < 0)
        PyErr_SetString(PyExc_ValueError, "deal_shoes: the shoe ran out (it cannot hold the burn, the cut and a coup)");
    else
        result = PyLong_FromLongLong(coups);
done:
    PyMem_Free(cards);
    for (int i = 0; i < got; i++) {
        PyBuffer_Release(&view[i]);
        Py_DECREF(obj[i]);
    }
    return result;
}

/* card_picks(rng, m, count): ``count`` picks from m cards by the kernel's pick() (PCG64 inline where
 * rng is PCG64), for the tests: equal to rng.integers(0, m, count), rejections included. */
static PyObject *card_picks(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rng;
    long long m, count;
    if (!PyArg_ParseTuple(args, "OLL:card_picks", &rng, &m, &count))
        return NULL;
    if (m < 1 || m > (long long)UINT32_MAX || count < 0) {
        PyErr_SetString(PyExc_ValueError, "card_picks: 1 <= m < 2**32 and count >= 0");
        return NULL;
    }
    PyObject *out = PyList_New((Py_ssize_t)count);
    if (out == NULL)
        return NULL;
    source_t source;
    rng_t r;
    if (open_source(rng, &source, &r) < 0) {
        release_source(&source, &r, 0);
        Py_DECREF(out);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)count; i++) {
        int64_t k;
#if HAVE_PCG64
        if (source.pcg64)
            k = pick(&r, (int64_t)m, PCG64_INLINE);
        else
#endif
            k = pick(&r, (int64_t)m, VIA_BITGEN);
        PyList_SET_ITEM(out, i, PyLong_FromLongLong(k));
    }
    if (release_source(&source, &r, 1) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* shuffle_picks(rng, n, t, count): the picks the kernel's shuffle ahead makes for positions t..t+count-1
 * of n cards (as j - pos), for the tests: equal to [rng.integers(0, n - pos) for each pos], rejections
 * and the kept half included; no cards are needed, so n may be near 2^32, where rejections are common. */
static PyObject *shuffle_picks(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rng;
    long long n, t, count;
    if (!PyArg_ParseTuple(args, "OLLL:shuffle_picks", &rng, &n, &t, &count))
        return NULL;
    if (n < 1 || n > (long long)UINT32_MAX || t < 0 || count < 0 || t + count > n) {
        PyErr_SetString(PyExc_ValueError, "shuffle_picks: 1 <= n < 2**32 and 0 <= t <= t + count <= n");
        return NULL;
    }
    int64_t *out = PyMem_Malloc((count > 0 ? (size_t)count : 1) * sizeof(int64_t));
    if (out == NULL)
        return PyErr_NoMemory();
    source_t source;
    rng_t r;
    if (open_source(rng, &source, &r) < 0) {
        release_source(&source, &r, 0);
        PyMem_Free(out);
        return NULL;
    }
#if HAVE_PCG64
    if (source.pcg64)
        shuffle_picks_into(&r, t, t + count, n, PCG64_INLINE, out);
    else
#endif
        shuffle_picks_into(&r, t, t + count, n, VIA_BITGEN, out);
    PyObject *list = release_source(&source, &r, 1) < 0 ? NULL : PyList_New((Py_ssize_t)count);
    for (Py_ssize_t i = 0; list != NULL && i < (Py_ssize_t)count; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLongLong(out[i]));
    PyMem_Free(out);
    return list;
}

static PyMethodDef methods[] = {
    {"deal_shoes", deal_shoes, METH_VARARGS,
     "deal_shoes(table, n_shoes, rng, counts) -> int\n\n"
     "solver.simulate.kernel.deal_shoes compiled ahead of time: the fields of table (a kernel.Table) and\n"
     "counts (a kernel.Counts) read by name, the same uniforms from rng's bit generator in the same order,\n"
     "the same counts added to; returns the number of coups dealt."},
    {"shuffle_picks", shuffle_picks, METH_VARARGS,
     "shuffle_picks(rng, n, t, count) -> list\n\nThe picks the kernel's shuffle ahead makes for positions t..t+count-1 of n "
     "cards, as\nj - pos: equal to [rng.integers(0, n - pos) for each pos] (for the tests)."},
    {"card_picks", card_picks, METH_VARARGS,
     "card_picks(rng, m, count) -> list\n\nThe kernel's picks from m cards (1 <= m < 2**32), as it draws them inline: "
     "equal to\nrng.integers(0, m, count) (for the tests)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "ckernel",
                                    "The simulator's dealing kernel in C (see solver/simulate/kernel.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit_ckernel(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "BURN_NONE", BURN_NONE) < 0 || PyModule_AddIntConstant(m, "BURN_FIXED", BURN_FIXED) < 0 ||
        PyModule_AddIntConstant(m, "BURN_TURN", BURN_TURN) < 0 ||
        PyModule_AddIntConstant(m, "N_DETAIL", N_DETAIL) < 0 || PyModule_AddIntConstant(m, "N_MOMENTS", N_MOMENTS) < 0 ||
        PyModule_AddIntConstant(m, "STOOD", STOOD) < 0 || PyModule_AddIntConstant(m, "NO_TURN", NO_TURN) < 0 ||
        PyModule_AddIntConstant(m, "N_CODES", N_CODES) < 0 ||
        PyModule_AddIntConstant(m, "N_SHOE_COUNTS", N_SHOE_COUNTS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
