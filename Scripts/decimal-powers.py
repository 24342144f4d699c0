#!/usr/bin/env python3
"""Prints the table of DecimalToDouble.powers: 10^-f for f = 0...19 as 128-bit significands
with the top bit set, truncated, as (high, low) 64-bit words."""
for n in range(0, 20):
    p = 10 ** n
    m = 1 << 127 if n == 0 else (1 << (127 + p.bit_length())) // p
    assert (1 << 127) <= m < (1 << 128)
    print("        (0x%016X, 0x%016X),  // 1e-%d" % (m >> 64, m & ((1 << 64) - 1), n))
