"""READDIR longnames straight from an sftp-server over pipes.

Arguments: server-program directory. Speaks INIT, OPENDIR and READDIR
until EOF, and prints the entries' longnames sorted, one a line, so the
`ls -l` lines of two servers can be compared byte for byte.
"""
import struct
import subprocess
import sys


def main():
    prog, d = sys.argv[1:3]
    p = subprocess.Popen([prog], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)

    def send(t, body):
        p.stdin.write(struct.pack(">IB", len(body) + 1, t) + body)
        p.stdin.flush()

    def recv():
        n = struct.unpack(">I", p.stdout.read(4))[0]
        return p.stdout.read(n)

    def s(x):
        return struct.pack(">I", len(x)) + x

    send(1, struct.pack(">I", 3))
    recv()
    send(11, struct.pack(">I", 1) + s(d.encode()))
    r = recv()
    assert r[0] == 102, "opendir failed"
    handle = r[5:]
    lines = []
    while True:
        send(12, struct.pack(">I", 2) + handle)
        r = recv()
        if r[0] != 104:
            break
        count = struct.unpack(">I", r[5:9])[0]
        off = 9
        for _ in range(count):
            for k in range(2):
                n = struct.unpack(">I", r[off:off + 4])[0]
                if k == 1:
                    lines.append(r[off + 4:off + 4 + n].decode())
                off += 4 + n
            flags = struct.unpack(">I", r[off:off + 4])[0]
            off += 4
            off += 8 if flags & 1 else 0
            off += 8 if flags & 2 else 0
            off += 4 if flags & 4 else 0
            off += 8 if flags & 8 else 0
    p.stdin.close()
    p.wait()
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
