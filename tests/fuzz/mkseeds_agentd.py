#!/usr/bin/python3
# mkseeds_agentd.py: record the seeds of fuzz_agentd from real clients.
#
# usage: python3 tests/fuzz/mkseeds_agentd.py    (after make build)
#
# Our ssh-agent runs in the foreground on a socket in a temporary
# directory; this script listens on another socket in front of it,
# passes every connection through and writes what each client sent, as
# one seed tests/fuzz/corpus/fuzz_agentd/rec_NN (a leading 0 byte: the
# whole stream in one piece). The clients are Debian's ssh-add (adding
# the fixed keys of fuzz_keys.h, user1 with its certificate, plain and
# with -t and -c; -l, -L, -d, -x and -X through an askpass, -D) and
# Debian's ssh logging in to our sshd on 127.0.0.1 with the agent
# (session-bind and sign requests), also with destination constraints
# (ssh-add -h) and the hostbound signature requests they allow. The
# keys are those the target preloads, so the sign and remove requests find them.
import ast, os, re, socket, subprocess, sys, tempfile, threading, time

top = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
bindir = os.environ.get("MOAT_BIN", os.path.join(top, "build", "bin"))
out = os.path.join(top, "tests", "fuzz", "corpus", "fuzz_agentd")
tmp = tempfile.mkdtemp(prefix="agentd-seeds.")
os.chmod(tmp, 0o700)


def header_string(name):
    text = open(os.path.join(top, "tests", "fuzz", "fuzz_keys.h")).read()
    m = re.search(r"static const char %s\[\] =\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+);"
                  % name, text)
    return "".join(ast.literal_eval(s) for s in
                   re.findall(r"\"(?:[^\"\\]|\\.)*\"", m.group(1)))


def write(name, text, mode=0o600):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        f.write(text)
    os.chmod(p, mode)
    return p


user1 = write("user1", header_string("fz_key_user1"))
write("user1.pub", header_string("fz_pub_user1"))
write("user1-cert.pub", header_string("fz_pub_cert1"))
user2 = write("user2", header_string("fz_key_user2"))
write("user2.pub", header_string("fz_pub_user2"))
rsa = write("rsa", header_string("fz_key_hostrsa"))
write("rsa.pub", header_string("fz_pub_hostrsa"))
askpass = write("askpass", "#!/bin/sh\necho seedpass\n", 0o755)

real = os.path.join(tmp, "real.sock")
proxy = os.path.join(tmp, "proxy.sock")
agent = subprocess.Popen([os.path.join(bindir, "ssh-agent"), "-D", "-a",
                          real], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
while not os.path.exists(real):
    time.sleep(0.05)
streams = []


def relay(cl):
    up = socket.socket(socket.AF_UNIX)
    up.connect(real)
    rec = bytearray()
    streams.append(rec)

    def back():
        while True:
            d = up.recv(65536)
            if not d:
                break
            cl.sendall(d)
        cl.close()
    threading.Thread(target=back, daemon=True).start()
    while True:
        d = cl.recv(65536)
        if not d:
            break
        rec += d
        up.sendall(d)
    up.shutdown(socket.SHUT_WR)


lsock = socket.socket(socket.AF_UNIX)
lsock.bind(proxy)
lsock.listen(8)


def serve():
    while True:
        c, _ = lsock.accept()
        threading.Thread(target=relay, args=(c,), daemon=True).start()


threading.Thread(target=serve, daemon=True).start()
env = dict(os.environ, SSH_AUTH_SOCK=proxy, SSH_ASKPASS=askpass,
           SSH_ASKPASS_REQUIRE="force")


def run(*args):
    subprocess.run(args, env=env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


hk = os.path.join(tmp, "host")
run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hk)
kh = write("known_hosts", "seedhost " + open(hk + ".pub").read())


def login():
    port = 20000 + os.getpid() % 20000
    ak = write("ak", open(os.path.join(tmp, "user2.pub")).read() +
               open(os.path.join(tmp, "rsa.pub")).read())
    cfg = write("sshd_config", "ListenAddress 127.0.0.1\nPort %d\n"
                "HostKey %s\nAuthorizedKeysFile %s\nStrictModes no\n"
                "PidFile none\n" % (port, hk, ak))
    sshd = subprocess.Popen([os.path.join(bindir, "sshd"), "-D", "-e", "-f",
                             cfg], stderr=subprocess.DEVNULL)
    time.sleep(1)
    for alg in ("ecdsa-sha2-nistp256", "rsa-sha2-512", "rsa-sha2-256"):
        run("ssh", "-F", "/dev/null", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o",
            "UserKnownHostsFile=/dev/null", "-o",
            "PubkeyAcceptedAlgorithms=" + alg, "-p", str(port),
            "127.0.0.1", "true")
    sshd.terminate()
    sshd.wait()


run("ssh-add", user1, user2, rsa)
run("ssh-add", "-l")
run("ssh-add", "-L")
login()
# Destination constraints (-h, restrict-destination-v00@openssh.com),
# then a login whose hostbound signature request they allow.
run("ssh-add", "-H", kh, "-h", "seedhost", "-h", "seedhost>seedhost",
    "-h", "user@seedhost", user2)
login()
run("ssh-add", "-t", "30", user2)
run("ssh-add", "-c", rsa)
run("ssh-add", "-d", user1)
run("ssh-add", "-x")
run("ssh-add", "-l")
run("ssh-add", "-X")
run("ssh-add", "-D")
time.sleep(0.5)
agent.terminate()
agent.wait()
os.makedirs(out, exist_ok=True)
n = 0
for s in streams:
    if s:
        with open(os.path.join(out, "rec_%02d" % n), "wb") as f:
            f.write(b"\0" + bytes(s))
        n += 1
print("%d seeds in %s" % (n, out))
subprocess.run(["rm", "-rf", tmp])
