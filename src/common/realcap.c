/* Real capacities in fixed point.
 *
 * A capacity written with a decimal point or an exponent is parsed as a
 * long double and kept aside (network.h: real_cap) until the whole network
 * is known. pf_network_finish then picks the finest power-of-two scale 2^k
 * that keeps every capacity and the sum of the sources' capacities within
 * the bound B (2^62, a parameter so that a 32-bit path can ask for 2^31),
 * and the sum of all capacities within B/2, and stores round(capacity *
 * 2^k) as the arc's integer capacity. The last condition is what the
 * parallel engines need: they hold the excess of the whole residual graph
 * in the path's integers (below 2B), and with a super source and sink the
 * residual graph holds up to three times the input's capacities. It
 * decides the scale in practice; integer files never see it.
 * The solvers and the checker then work exactly on integers; only the
 * rounding of the input to multiples of 2^-k is inexact, and the network
 * records a bound on its effect on the flow value: the sum over the arcs of
 * |capacity - rounded capacity| (a cut's capacity moves by at most that),
 * plus the decimal-to-binary error of every capacity whose text is not a
 * binary fraction (0.1 is not; 0.5 and 3 are).
 *
 * Amounts (the value, the flows) are printed as the shortest decimal that
 * reads back as the same fixed-point integer through the same conversion
 * the readers use, so a solution file checks exactly. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network.h"
#include "realcap.h"
#include "status.h"

/* Integers below 2^MANT_BITS are exact in a long double. */
#define MANT_BITS (LDBL_MANT_DIG < 64 ? LDBL_MANT_DIG : 64)

/* Decimal text [+]D.DDDe[+-]X (sign already checked) as significand digits
 * and a power of ten: *digits * 10^*exp10. Returns 0 when the significant
 * digits do not fit 19 (callers then treat the value as inexact). */
static int decimal_parts(const char *text, int len, uint64_t *digits, int64_t *exp10)
{
    const char *p = text + (*text == '+'), *end = text + len;
    uint64_t d = 0;
    int64_t e = 0, pending_zeros = 0;
    int significant = 0, in_fraction = 0;
    for (; p < end && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            in_fraction = 1;
            continue;
        }
        e -= in_fraction;
        if (*p == '0') {
            pending_zeros += significant > 0; /* leading zeros count for nothing */
            continue;
        }
        /* Zeros between significant digits are digits too. */
        for (; pending_zeros > 0; pending_zeros--, significant++)
            d *= 10;
        d = d * 10 + (uint64_t)(*p - '0');
        if (++significant > 19)
            return 0;
    }
    e += pending_zeros; /* trailing zeros: a power of ten instead */
    if (p < end) {
        long long x = strtoll(p + 1, NULL, 10);
        if (x > 100000 || x < -100000)
            return 0;
        e += x;
    }
    *digits = d;
    *exp10 = e;
    return 1;
}

/* Does the long double parsed from this decimal text equal the decimal
 * exactly? Only when the decimal is a binary fraction that fits the
 * long double's significand; "no" when unsure (a bound stays a bound). */
static int decimal_is_exact(const char *text, int len)
{
    uint64_t d;
    int64_t e;
    if (!decimal_parts(text, len, &d, &e))
        return 0;
    if (d == 0)
        return 1;
    unsigned __int128 limit = (unsigned __int128)1 << MANT_BITS;
    if (e >= 0) { /* d * 10^e = d * 5^e * 2^e: d * 5^e must fit */
        unsigned __int128 v = d;
        for (int64_t i = 0; i < e; i++) {
            v *= 5;
            if (v >= limit)
                return 0;
        }
        return v < limit;
    }
    /* d / 10^-e is a binary fraction iff 5^-e divides d (5^28 > 2^64). */
    uint64_t q = d;
    for (int64_t i = 0; i < -e; i++) {
        if (-e > 27 || q % 5)
            return 0;
        q /= 5;
    }
    return (unsigned __int128)q < limit;
}

/* Half a unit in the last place of x (x > 0). */
static long double half_ulp(long double x)
{
    return ldexpl(1.0L, ilogbl(x) - LDBL_MANT_DIG);
}

int pf_network_real_cap(pf_network *net, int64_t i, long double value, int exact, pf_status *st)
{
    if (!net->real_cap) {
        net->real_cap = pf_alloc((size_t)(net->m_alloc > i ? net->m_alloc : i + 1),
                                 sizeof *net->real_cap, st);
        if (!net->real_cap)
            return PF_E_NOMEM;
    }
    net->cap[i] = -1;
    net->real_cap[i] = value;
    if (!exact && value > 0)
        net->parse_error += half_ulp(value);
    net->is_real = net->scale_pending = 1;
    return PF_OK;
}

const char *pf_real_cap_text(pf_network *net, int64_t i, const char *text, int len,
                             pf_status *st)
{
    if (*text == '-')
        return "is negative";
    char *end = NULL;
    long double value = strtold(text, &end);
    if (end != text + len)
        return "is not a number";
    if (!isfinite(value))
        return "is too large";
    if (pf_network_real_cap(net, i, value, decimal_is_exact(text, len), st))
        return "does not fit in memory";
    return NULL;
}

int pf_network_add_arc_real(pf_network *net, int64_t tail, int64_t head, double capacity,
                            pf_status *st)
{
    if (!(capacity >= 0) || !isfinite(capacity))
        return pf_fail(st, PF_E_INPUT, "capacity %g is not a finite nonnegative number", capacity);
    int rc = pf_network_add_arc(net, tail, head, 0, st);
    if (!rc)
        rc = pf_network_real_cap(net, net->m - 1, capacity, 1, st); /* a double is exact */
    return rc;
}

/* Arc i's capacity in input units, while the scale is pending. */
static long double input_cap(const pf_network *net, int64_t i)
{
    return net->cap[i] < 0 ? net->real_cap[i] : (long double)net->cap[i];
}

/* Does scale 2^k keep every rounded capacity, and the rounded capacities
 * out of the sources summed, within `bound`, and all of them summed within
 * half of it? */
static int scale_fits(const pf_network *net, int k, long double bound)
{
    long double sources = 0, total = 0;
    for (int64_t i = 0; i < net->m; i++) {
        long double q = roundl(ldexpl(input_cap(net, i), k));
        if (q > bound)
            return 0;
        total += q; /* exact while below 2^64: checked before it could pass */
        if (total > bound / 2)
            return 0;
        if (pf_network_role(net, net->tail[i]) == 1)
            sources += q;
    }
    return sources <= bound;
}

/* The finest scale that fits: start just above where the largest amount
 * allows and step down (at most a step or two). */
static int choose_scale(const pf_network *net, int bound_log2)
{
    long double largest = 0, sources = 0, total = 0;
    for (int64_t i = 0; i < net->m; i++) {
        long double c = input_cap(net, i);
        largest = c > largest ? c : largest;
        total += c;
        if (pf_network_role(net, net->tail[i]) == 1)
            sources += c;
    }
    long double top = sources > largest ? sources : largest;
    top = 2 * total > top ? 2 * total : top;
    if (top == 0)
        return 0;
    int e;
    frexpl(top, &e); /* top < 2^e */
    int k = bound_log2 - e + 1;
    long double bound = ldexpl(1.0L, bound_log2);
    while (!scale_fits(net, k, bound))
        k--;
    return k;
}

int pf_network_finish(pf_network *net, int bound_log2, pf_status *st)
{
    if (!net->scale_pending) {
        pf_status_ok(st);
        return PF_OK;
    }
    if (bound_log2 < 1 || bound_log2 > 62 || bound_log2 > MANT_BITS)
        return pf_fail(st, PF_E_USAGE, "capacity bound 2^%d outside 2^1..2^%d", bound_log2,
                       MANT_BITS < 62 ? MANT_BITS : 62);
    int k = choose_scale(net, bound_log2);
    long double error = net->parse_error;
    for (int64_t i = 0; i < net->m; i++) {
        long double c = input_cap(net, i);
        long double q = roundl(ldexpl(c, k));
        error += fabsl(ldexpl(q, -k) - c);
        net->cap[i] = (int64_t)q;
    }
    /* A bound must stay one after the sum's own rounding: round it up. */
    net->scale_error = error == 0 ? 0 : (double)(error * (1 + 0x1p-40L)) * (1 + 0x1p-40);
    net->scale_log2 = k;
    net->scale_pending = 0;
    free(net->real_cap);
    net->real_cap = NULL;
    pf_status_ok(st);
    return PF_OK;
}

int pf_network_scale(const pf_network *net, int *scale_log2, double *error)
{
    if (scale_log2)
        *scale_log2 = net->is_real ? net->scale_log2 : 0;
    if (error)
        *error = net->is_real ? net->scale_error : 0;
    return net->is_real;
}

int pf_amount_parse(const pf_network *net, const char *text, int64_t *amount)
{
    char *end = NULL;
    long double value = strtold(text, &end);
    if (end == text || !isfinite(value))
        return PF_E_INPUT;
    long double q = roundl(ldexpl(value, net->is_real ? net->scale_log2 : 0));
    if (!(q >= -0x1p63L && q < 0x1p63L))
        return PF_E_INPUT;
    *amount = (int64_t)q;
    return PF_OK;
}

int pf_amount_format(const pf_network *net, int64_t amount, char *buf, size_t len)
{
    if (!net->is_real)
        return snprintf(buf, len, "%lld", (long long)amount);
    long double value = ldexpl((long double)amount, -net->scale_log2);
    int64_t back = 0;
    int written = 0;
    /* Enough digits always read back (the long double is exact); the
     * shortest that does is the friendliest. */
    for (int digits = 1; digits <= LDBL_DECIMAL_DIG; digits++) {
        written = snprintf(buf, len, "%.*Lg", digits, value);
        if ((size_t)written < len && pf_amount_parse(net, buf, &back) == PF_OK && back == amount)
            break;
    }
    return written;
}

double pf_amount_to_double(const pf_network *net, int64_t amount)
{
    return (double)ldexpl((long double)amount, net->is_real ? -net->scale_log2 : 0);
}
