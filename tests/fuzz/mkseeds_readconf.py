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
    "RT_FLAG": "yes", "RT_STR": "%h.example.net", "RT_ALGS": "+aes128-ctr",
    "RT_PORT": "2222", "RT_ACCUM": "LANG LC_*", "RT_AGENT": "SSH_AUTH_SOCK",
    "RT_ENUM": "no", "RT_ESCAPE": "^A", "RT_FILES": "~/.ssh/kh1 /tmp/kh2",
    "RT_IDENTITY": "~/.ssh/id_%r", "RT_INT": "3", "RT_LOGLEVEL": "DEBUG2",
    "RT_MASK": "0177", "RT_REKEY": "1G 1h",
    "RT_REST": "127.0.0.1:8080 [::1]:80", "RT_SETENV": 'A=1 "B=two words"',
    "RT_TIME": "1m30s", "RT_IGNORE": "yes", "RT_DEPRECATED": "yes",
    "RT_UNSUPP": "yes",
}
lines = ["Host fuzz*"]
for m in re.finditer(r'\{ *"([a-z]+)", (RT_[A-Z_]+)', table):
    kind = m.group(2)
    if kind not in value:
        sys.exit("mkseeds_readconf: no sample value for %s" % kind)
    lines.append("\t%s %s" % (m.group(1), value[kind]))
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "keywords"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("mkseeds: fuzz_readconf: %d keywords" % (len(lines) - 1))
