#!/usr/bin/env python3
# mkseeds_readconf.py: the "keywords" seed of fuzz_readconf, every ssh_config
# keyword of the client's table (src/client/readconf_kw.c) once, each with
# a value of its kind, in a Host block that matches the target's host.
#
# usage: python3 mkseeds_readconf.py TOP CORPUS_DIR
import os
import re
import sys

top, out = sys.argv[1], sys.argv[2]
src = open(os.path.join(top, "src/client/readconf_kw.c")).read()
table = src[src.index("const struct conf_kw rc_keywords[] = {"):]
table = table[:table.index("};")]

# A plausible value per parser kind; the fuzzer mutates from there.
value = {
    "CK_FLAG": "yes", "CK_STR": "%h.example.net", "CK_ALGS": "+aes128-ctr",
    "CK_PORT": "2222", "CK_LIST": "LANG LC_*", "RT_AGENT": "SSH_AUTH_SOCK",
    "CK_ENUM": "no", "RT_ESCAPE": "^A", "RT_FILES": "~/.ssh/kh1 /tmp/kh2",
    "RT_IDENTITY": "~/.ssh/id_%r", "CK_INT": "3", "CK_LOGLEVEL": "DEBUG2",
    "CK_MODE": "0177", "RT_REKEY": "1G 1h",
    "CK_REST": "127.0.0.1:8080 [::1]:80", "RT_SETENV": 'A=1 "B=two words"',
    "CK_TIME": "1m30s", "CK_IGNORE": "yes", "CK_DEPRECATED": "yes",
    "CK_UNSUPPORTED": "yes",
}
lines = ["Host fuzz*"]
for m in re.finditer(r'\{ *"([a-z]+)", ((?:RT|CK)_[A-Z_]+)', table):
    kind = m.group(2)
    if kind not in value:
        sys.exit("mkseeds_readconf: no sample value for %s" % kind)
    lines.append("\t%s %s" % (m.group(1), value[kind]))
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "keywords"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("mkseeds: fuzz_readconf: %d keywords" % (len(lines) - 1))
