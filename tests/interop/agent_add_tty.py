"""agent_add_tty.py: run a program on a pseudo-terminal and answer its
prompts, for ssh-add's lock password and passphrase dialogues.

    agent_add_tty.py OUTFILE ANSWER... -- ARGV...

Each ANSWER is typed (with a carriage return) once the terminal shows a
new prompt, text ending in ": "; everything the program writes to the
terminal goes to OUTFILE, and the last line printed is its exit status.
"""
import os
import pty
import select
import sys
import time


def read_more(fd, buf, seconds, done):
    end = time.time() + seconds
    while not done(buf) and time.time() < end:
        r, _, _ = select.select([fd], [], [], max(0, end - time.time()))
        if not r:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            return buf, True
        buf += chunk
    return buf, False


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 3:
        sys.exit("usage: agent_add_tty.py OUTFILE ANSWER... -- ARGV...")
    cut = args.index("--")
    outfile, answers, argv = args[0], args[1:cut], args[cut + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    buf, eof = b"", False
    for answer in answers:
        seen = len(buf)
        buf, eof = read_more(fd, buf, 20,
                             lambda b: b[seen:].rstrip(b"\r\n")
                             .endswith(b": ") or
                             b[seen:].endswith(b": "))
        if eof:
            break
        os.write(fd, answer.encode() + b"\r")
    if not eof:
        buf, eof = read_more(fd, buf, 20, lambda b: False)
    _, status = os.waitpid(pid, 0)
    with open(outfile, "wb") as f:
        f.write(buf)
    print("status %d" % os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
