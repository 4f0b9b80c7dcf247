"""privsep_mem.py PID KEYFILE: does process PID hold the secret half of
the unencrypted OpenSSH ed25519 private key KEYFILE anywhere in its
memory? privsep_mem.py PID --written TEXT: does it hold TEXT in memory
it allocated (heap and anonymous mappings; not the program's own
read-only copy of a string, and not the stack, where the kernel saves
the vector registers at each signal and they may still hold the last
bytes a memcpy moved)? Prints "found" or "absent", or "unsearchable" when a mapping
with pages in it is too large to read through (a sanitizer's shadow and
allocator reserve terabytes). Run as root: it reads /proc/PID/mem."""
import base64
import struct
import sys

CHUNK = 1 << 20
LARGEST = 1 << 30


def seed_of(path):
    text = open(path).read()
    body = "".join(l for l in text.splitlines() if not l.startswith("-----"))
    b = base64.b64decode(body)
    magic = b"openssh-key-v1\0"
    if not b.startswith(magic):
        sys.exit("not an openssh-key-v1 file")
    off = len(magic)

    def string():
        nonlocal off
        (n,) = struct.unpack(">I", b[off:off + 4])
        v = b[off + 4:off + 4 + n]
        off += 4 + n
        return v

    if string() != b"none":
        sys.exit("encrypted key")
    string()                    # kdf name
    string()                    # kdf options
    off += 4                    # number of keys
    string()                    # public key
    priv = string()
    off = 8                     # the two check words
    b = priv
    if string() != b"ssh-ed25519":
        sys.exit("not an ed25519 key")
    string()                    # public
    secret = string()           # seed || public
    return secret[:32]


def allocated(head):
    """A writable mapping of no file, or the heap; not the stack."""
    name = head[5] if len(head) > 5 else ""
    return "w" in head[1] and (name == "" or name == "[heap]")


def main():
    pid = sys.argv[1]
    written = sys.argv[2] == "--written"
    seed = sys.argv[3].encode() if written else seed_of(sys.argv[2])
    found = False
    regions = []
    with open("/proc/%s/smaps" % pid) as smaps:
        for line in smaps:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5:
                head = fields
            elif fields[0] == "Rss:" and int(fields[1]) > 0:
                if "r" in head[1] and not (len(head) > 5 and head[5] in
                                           ("[vvar]", "[vsyscall]")) and \
                        (not written or allocated(head)):
                    lo, hi = (int(x, 16) for x in head[0].split("-"))
                    if hi - lo > LARGEST:
                        print("unsearchable")
                        return
                    regions.append((lo, hi))
    with open("/proc/%s/mem" % pid, "rb", 0) as mem:
        for lo, hi in regions:
            # Chunks that overlap by the seed's length; an unreadable
            # one (a guard page) is skipped.
            pos = lo
            while pos < hi and not found:
                n = min(CHUNK, hi - pos)
                try:
                    mem.seek(pos)
                    data = mem.read(n + len(seed))
                except (OSError, ValueError, OverflowError):
                    data = b""
                found = seed in data
                pos += n
            if found:
                break
    print("found" if found else "absent")


main()
