#!/bin/sh
# man_keywords.sh: every keyword in the configuration keyword tables has
# an entry in its man page, and every flag the programs' getopt strings
# accept is described in theirs.
#
# sshd_config(5) and ssh_config(5): a keyword that is acted on needs an
# ".It Cm Keyword" entry; one accepted and ignored (T_IGNORE and
# T_DEPRECATED rows, ssh's ignored list) must at least be named with
# ".Cm Keyword" (the pages list them in their own section). sshd(8),
# ssh(1), ssh-add(1) and scp(1): each option letter needs an ".It Fl x"
# entry. Names compare without regard to case, as the parsers compare
# them.
. "$(dirname "$0")/lib.sh"

MAN=$SRC/man

# lower-case names of the ".It Cm" entries, and of every ".Cm" word
entries() {
	awk '$1 == ".It" && $2 == "Cm" { print tolower($3) }' "$1" |
	    sed 's/\\&//g' | sort -u
}
named() {
	awk '{ for (i = 1; i < NF; i++) if ($i == "Cm" || $i == ".Cm") print tolower($(i+1)) }' \
	    "$1" | sed 's/\\&//g' | sort -u
}
flags() {
	awk '$1 == ".It" && $2 == "Fl" { print $3 }' "$1" | sort -u
}

# missing LIST_FILE HAVE_FILE: names in the first not in the second
missing() { comm -23 "$1" "$2"; }

# check_list WHAT LIST_FILE HAVE_FILE
check_list() {
	_m=$(missing "$2" "$3" | tr '\n' ' ')
	_n=$(wc -l <"$2")
	if [ "$_n" -lt 5 ]; then
		fail "$1: only $_n names read from the source (parser changed?)"
	elif [ -z "$_m" ]; then
		pass "$1: all $_n present"
	else
		fail "$1: missing: $_m"
	fi
}

# --- sshd_config(5) against src/server/servconf_kw.c ---
KW=$SRC/src/server/servconf_kw.c
awk '/^const struct conf_kw sc_keywords/,/^};/' "$KW" |
    grep -o '{ "[a-z0-9]*", T_[A-Z]*' | sed 's/[{",]//g' >"$T/sc.all"
awk '$2 != "T_IGNORE" && $2 != "T_DEPRECATED" && $2 != "T_UNSUPP" { print $1 }' "$T/sc.all" |
    sort -u >"$T/sc.acted"
awk '$2 == "T_IGNORE" || $2 == "T_DEPRECATED" || $2 == "T_UNSUPP" { print $1 }' "$T/sc.all" |
    sort -u >"$T/sc.ignored"
entries "$MAN/sshd_config.5" >"$T/sc.entries"
named "$MAN/sshd_config.5" >"$T/sc.named"
check_list "sshd_config.5 entries for acted-on keywords" "$T/sc.acted" \
    "$T/sc.entries"
check_list "sshd_config.5 names the ignored keywords" "$T/sc.ignored" \
    "$T/sc.named"

# --- ssh_config(5) against src/client/readconf_kw.c ---
KW=$SRC/src/client/readconf_kw.c
awk '/^const struct conf_kw rc_keywords/,/^};/' "$KW" |
    grep -o '{ "[a-z0-9]*", [RC][TK]_[A-Z]*' | sed 's/[{",]//g' >"$T/rc.all"
{
	awk '$2 != "CK_IGNORE" && $2 != "CK_DEPRECATED" &&
	    $2 != "CK_UNSUPPORTED" { print $1 }' "$T/rc.all"
	# handled by readconf.c itself, outside the table
	printf 'host\nmatch\ninclude\n'
} | sort -u >"$T/rc.acted"
awk '$2 == "CK_IGNORE" || $2 == "CK_DEPRECATED" || $2 == "CK_UNSUPPORTED" {
    print $1 }' "$T/rc.all" | sort -u >"$T/rc.ignored"
entries "$MAN/ssh_config.5" >"$T/rc.entries"
named "$MAN/ssh_config.5" >"$T/rc.named"
check_list "ssh_config.5 entries for acted-on keywords" "$T/rc.acted" \
    "$T/rc.entries"
check_list "ssh_config.5 names the ignored keywords" "$T/rc.ignored" \
    "$T/rc.named"

# --- flags: sshd(8) and ssh(1) against their getopt strings ---
# getopt_letters FILE PATTERN: the option letters of the string on the
# line matching PATTERN, one a line (-R is sshd's internal flag).
getopt_letters() {
	grep "$2" "$1" | head -1 | sed 's/.*"\([^"]*\)".*/\1/' |
	    tr -d ':+' | fold -w1 | grep -v '^R$' | sort -u
}
getopt_letters "$SRC/src/sshd/sshd.c" '#define OPTSTRING' >"$T/sshd.flags"
flags "$MAN/sshd.8" >"$T/sshd.have"
check_list "sshd.8 describes every flag" "$T/sshd.flags" "$T/sshd.have"
# ssh's -R is a real flag (remote forwarding): put it back.
{ getopt_letters "$SRC/src/ssh/ssh.c" '#define OPTSTRING'; echo R; } |
    sort -u >"$T/ssh.flags"
flags "$MAN/ssh.1" >"$T/ssh.have"
check_list "ssh.1 describes every flag" "$T/ssh.flags" "$T/ssh.have"
if [ -f "$SRC/src/add/main.c" ]; then
	getopt_letters "$SRC/src/add/main.c" '^	    "+v' >"$T/add.flags"
	flags "$MAN/ssh-add.1" >"$T/add.have"
	check_list "ssh-add.1 describes every flag" "$T/add.flags" \
	    "$T/add.have"
fi
if [ -f "$SRC/src/scp/main.c" ]; then
	# scp's -R copies between hosts; its -d -f -t (the far end's) and
	# the obsolete -1 -2 are not described, as in OpenSSH's page.
	{ getopt_letters "$SRC/src/scp/main.c" '":12346AB'; echo R; } |
	    grep -v '^[12dft]$' | sort -u >"$T/scp.flags"
	flags "$MAN/scp.1" >"$T/scp.have"
	check_list "scp.1 describes every flag" "$T/scp.flags" "$T/scp.have"
fi

finish
