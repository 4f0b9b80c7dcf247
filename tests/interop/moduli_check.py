#!/usr/bin/env python3
"""moduli_check.py: an independent check of moduli(5) files, for
keygen_moduli.sh. It shares no code with ssh-keygen: Python's own big
integers, pow() and gcd().

  moduli_check.py screened FILE     every line a usable safe-prime group
  moduli_check.py candidates FILE   every line a well-formed sieved q

A screened line must have type 2, the Miller-Rabin bit and not the
composite bit, tries > 0, size = bits - 1, p and q = (p - 1) / 2 both
probable primes (base 2 and 20 random bases), and the generator OpenSSH
gives that p (2 when p % 24 == 11, else 5 when p % 10 is 3 or 7), which
must generate the whole group: g^q mod p == p - 1.

A candidate line must have type 4, tests 0x02, generator 0, size = bits
- 1, q = 5 mod 6, and neither q nor 2q + 1 may share a factor with the
primes below 2^16.

Prints "N lines ok" and exits 0, or names each bad line and exits 1.
Fewer lines than --min N is a failure too.
"""
import math
import random
import sys

RNG = random.SystemRandom()


def small_primes(limit):
    sieve = bytearray([1]) * limit
    sieve[0:2] = b"\0\0"
    for i in range(2, int(limit ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(range(i * i, limit, i)))
    return [i for i in range(limit) if sieve[i]]


PRIMORIAL = math.prod(small_primes(1 << 16))


def probable_prime(n, rounds=20):
    if n < 5 or n % 2 == 0:
        return n in (2, 3)
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    bases = [2] + [RNG.randrange(2, n - 1) for _ in range(rounds)]
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def fields(line):
    f = line.split()
    if len(f) != 7 or not f[0].isdigit() or len(f[0]) != 14:
        raise ValueError("not 7 fields with a 14-digit time stamp")
    return [int(x) for x in f[1:5]] + [int(f[5], 16), int(f[6], 16)]


def check_screened(line):
    typ, tests, tries, size, g, p = fields(line)
    q = (p - 1) // 2
    if typ != 2 or not tests & 4 or tests & 1 or tries < 1:
        return "type/tests/tries"
    if size != p.bit_length() - 1:
        return "size"
    if not probable_prime(p):
        return "p not prime"
    if not probable_prime(q):
        return "q not prime"
    want = 2 if p % 24 == 11 else 5 if p % 10 in (3, 7) else 0
    if g != want:
        return "generator %d, want %d" % (g, want)
    if pow(g, q, p) != p - 1:
        return "g does not generate the group"
    return None


def check_candidate(line):
    typ, tests, _tries, size, g, q = fields(line)
    if typ != 4 or tests != 2 or g != 0:
        return "type/tests/generator"
    if size != q.bit_length() - 1:
        return "size"
    if q % 6 != 5:
        return "q not 5 mod 6"
    if math.gcd(q, PRIMORIAL) != 1 or math.gcd(2 * q + 1, PRIMORIAL) != 1:
        return "small factor"
    return None


def main():
    args = sys.argv[1:]
    least = 1
    if len(args) > 2 and args[0] == "--min":
        least = int(args[1])
        args = args[2:]
    if len(args) != 2 or args[0] not in ("screened", "candidates"):
        sys.exit(__doc__)
    check = check_screened if args[0] == "screened" else check_candidate
    bad = n = 0
    with open(args[1]) as f:
        for num, line in enumerate(f, 1):
            n += 1
            try:
                why = check(line)
            except ValueError as e:
                why = str(e)
            if why:
                bad += 1
                print("%s:%d: %s" % (args[1], num, why))
    if n < least:
        print("%s: %d lines, want at least %d" % (args[1], n, least))
        sys.exit(1)
    if bad:
        sys.exit(1)
    print("%d lines ok" % n)


if __name__ == "__main__":
    main()
