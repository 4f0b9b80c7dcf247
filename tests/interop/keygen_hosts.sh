#!/bin/sh
# keygen_hosts.sh: known_hosts handling of our ssh-keygen against
# OpenSSH's: -F (plain, hashed, [host]:port, markers, -l), -R (lines
# removed and reported, .old kept), -H (our hashes found by theirs and
# the other way round). Then, with standard error and exit status too:
# lines printed as written (blanks, CRs), -F -H hashing each name of an
# entry and leaving wildcard, hashed and marker lines as they are, and
# -H and -R naming the invalid lines of a file and refusing to replace
# it.
. "$(dirname "$0")/keygen_lib.inc"

"$O" -q -t ed25519 -N '' -f a
"$O" -q -t ecdsa -N '' -f b
"$O" -q -t rsa -b 2048 -N '' -f c
ka=$(cut -d' ' -f1,2 a.pub); kb=$(cut -d' ' -f1,2 b.pub)
kc=$(cut -d' ' -f1,2 c.pub)
cat > kh <<EOT
host1,10.0.0.1 $ka
@cert-authority *.example.com $kb ca key
# a comment

[host1]:2222 $kb
host2 $kb trailing comment
@revoked host1 $kc
*.wild.org,!bad.wild.org $kc
Host3 $kb
EOT
for h in host1 10.0.0.1 '[host1]:2222' host2 a.example.com x.wild.org \
    bad.wild.org HOST3 nope; do
	same "-F $h" "$K -F '$h' -f kh" "$O -F '$h' -f kh"
	same "-F -l $h" "$K -F '$h' -l -f kh" "$O -F '$h' -l -f kh"
done

# Hashing: each side finds the other's hashed names.
mkdir k o
cp kh k/kh; cp kh o/kh
same "-H" "cd k && $K -H -f kh" "cd o && $O -H -f kh"
check ".old kept" cmp kh k/kh.old
cp k/kh khK; cp o/kh khO
for h in host1 10.0.0.1 '[host1]:2222' host2 host3 x.wild.org; do
	same "-F $h in our hashed" "$K -F '$h' -f khK | grep -c found" \
	    "$O -F '$h' -f khK | grep -c found"
	same "-F $h in their hashed" "$K -F '$h' -f khO | grep -c found" \
	    "$O -F '$h' -f khO | grep -c found"
	same "-F -l $h hashed" "$K -F '$h' -l -f khO" "$O -F '$h' -l -f khO"
done
check "hashed names differ from plain" sh -c "! grep -q '^host2' khK"

# Removal.
for h in host1 '[host1]:2222' host2 x.wild.org nope; do
	cp kh k/r; cp kh o/r
	same "-R $h" "cd k && $K -R '$h' -f r" "cd o && $O -R '$h' -f r"
	check "-R $h same file" cmp k/r o/r
	[ "$h" = nope ] || check "-R $h .old" cmp kh k/r.old
	cp khO k/r; cp khO o/r
	same "-R $h hashed" "cd k && $K -R '$h' -f r" "cd o && $O -R '$h' -f r"
	check "-R $h hashed same file" cmp k/r o/r
done
# Odd but valid lines, and invalid ones (see keygen_hosts.c).
ke=$(cut -d' ' -f2 a.pub)
printf '  h?st\tssh-ed25519 %s   c1  \n' "$ke" > odd
printf '\thost7,Host8  ssh-ed25519 %s  c2 \r\n' "$ke" >> odd
printf 'host9 ssh-ed25519 %s\r\n' "$ke" >> odd
printf '@cert-authority  host9   ssh-ed25519 %s  x \n' "$ke" >> odd
printf '*.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.aa.bb.cc.dd,o %s\n' \
    "$ka" >> odd
printf 'sn rsa AAAA\nwa webauthn-sk-ecdsa-sha2-nistp256@openssh.com X\n' >> odd
printf 'dk dsa A\nsk ed25519-SK X\nbadblob ssh-ed25519 AAAA\n' >> odd
printf '  \t \n\t# comment\n@revoked  rv ssh-rsa A\n' >> odd
cp odd bad
printf 'c ssh-ed25519\nd ssh-ed25519 #x\nf ED25519-CERT AA\ng x AA\n' >> bad
printf 'h 2048 35 1234\n@revoked\n@revoked h\n@cert-authority\th ssh-rsa A\n' \
    >> bad
printf '@CERT-AUTHORITY h ssh-rsa A\n|1|AAAA|BBBB ssh-rsa X\n\r\n' >> bad
unhash="sed 's/^|1|[^ ]*/HASHED/'"
for h in hast host7 HOST8 host9 x.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.aa.bb.cc.dd \
    o sn wa badblob rv nope; do
	for fl in "" -H -l -lv -q "-q -H" "-q -l"; do
		alike "-F $h $fl" "\$KG -F $h $fl -f odd | $unhash"
		alike "-F $h $fl, invalid lines" "\$KG -F $h $fl -f bad | $unhash"
	done
done
alike "-H of odd lines" "cp odd x; \$KG -H -f x; $unhash x; ls x*; rm x*"
for f in bad; do
	alike "-H refuses $f" "cp $f x; \$KG -H -f x; cmp $f x; ls x*; rm x*"
	alike "-H -v refuses $f" "cp $f x; \$KG -v -H -f x; ls x*; rm x*"
	for h in host9 h nope; do
		alike "-R $h refuses $f" "cp $f x; \$KG -R $h -f x; cmp $f x;
		    ls x*; rm x*"
	done
	alike "-R -q refuses $f" "cp $f x; \$KG -q -R h -f x; rm x*"
	alike "-F -v on $f" "\$KG -v -F h -f $f"
done
alike "-R of odd lines" "cp odd x; \$KG -R host9 -f x; cat x; ls x*; rm x*"
for fl in "-F h -H -l" "-R h -l" "-H -l"; do
	alike "$fl refused" "\$KG $fl -f kh 2>&1 | head -1; \$KG $fl -f kh \
	    2>/dev/null"
done
alike "-R nope, stderr" "cp kh x; \$KG -R nope -f x; rm x*"
alike "-H, stderr" "cp kh x; \$KG -H -f x; rm x*"
for f in missing kh; do
	alike "-F in $f" "\$KG -F h -f $f"
done
same "-R missing" "$K -R h -f missing" "$O -R h -f missing"
same "-F missing" "$K -F h -f missing" "$O -F h -f missing"
finish
