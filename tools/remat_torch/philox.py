"""Philox4x32-10 and remat's uniform mapping (docs/design.md, "Philox"), in numpy.

Used by the equivalence check: torch's rand_like is replaced by `uniform(seed, offset,
shape)` so that torch draws, bit for bit, the tensors rt.uniform_philox draws.
Checked against the Random123 known-answer vectors (those test/unit/philox_test.c uses) by
`remat-import-torch --self-test`.
"""
import numpy as np

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def philox4x32_10(c0, c1, c2, c3, k0, k1):
    """Ten rounds over arrays of counters (uint64 arrays holding 32-bit words) with one
    key; returns the four output words as uint64 arrays."""
    c = [np.asarray(x, dtype=np.uint64) & np.uint64(MASK) for x in (c0, c1, c2, c3)]
    k0, k1 = int(k0) & MASK, int(k1) & MASK
    m0, m1, mask = np.uint64(M0), np.uint64(M1), np.uint64(MASK)
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        p0 = m0 * c[0]           # < 2^64: exact in uint64
        p1 = m1 * c[2]
        hi0, lo0 = p0 >> np.uint64(32), p0 & mask
        hi1, lo1 = p1 >> np.uint64(32), p1 & mask
        c = [hi1 ^ c[1] ^ np.uint64(k0), lo1, hi0 ^ c[3] ^ np.uint64(k1), lo0]
    return c


def bits(seed, offset, n):
    """The 32-bit words of elements 0..n-1: key = seed halves, counter = (offset halves,
    i/4 halves), word i % 4."""
    seed, offset = int(seed) & (2**64 - 1), int(offset) & (2**64 - 1)
    blocks = np.arange((n + 3) // 4, dtype=np.uint64)
    words = philox4x32_10(np.full_like(blocks, offset & MASK), np.full_like(blocks, offset >> 32),
                          blocks & np.uint64(MASK), blocks >> np.uint64(32),
                          seed & MASK, seed >> 32)
    return np.stack(words, axis=1).reshape(-1)[:n]


def uniform(seed, offset, shape):
    """float32 values in [0, 1): u = (float)x * 2^-32 + 2^-33 in f32, 1.0 -> 0.0
    (with lo = 0, hi = 1 the fma of the mapping is exactly u)."""
    n = 1
    for d in shape:
        n *= d
    x = bits(seed, offset, n).astype(np.uint32).astype(np.float32)
    u = x * np.float32(2.0**-32) + np.float32(2.0**-33)
    u[u == np.float32(1.0)] = np.float32(0.0)
    return u.reshape(shape)


KAT = [  # Random123 kat_vectors, philox4x32 with 10 rounds: ctr, key -> out
    ((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((MASK, MASK, MASK, MASK), (MASK, MASK), (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
]


def self_test():
    """Returns a list of failures (empty when every known answer matches)."""
    bad = []
    for ctr, key, want in KAT:
        got = tuple(int(w[0]) for w in philox4x32_10(*[[c] for c in ctr], *key))
        if got != want:
            bad.append(f"ctr={ctr} key={key}: got {[hex(g) for g in got]}, want {[hex(x) for x in want]}")
    return bad
