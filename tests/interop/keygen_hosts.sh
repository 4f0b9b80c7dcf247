#!/bin/sh
# keygen_hosts.sh: known_hosts handling of our ssh-keygen against
# OpenSSH's: -F (plain, hashed, [host]:port, markers, -l), -R (lines
# removed and reported, .old kept), -H (our hashes found by theirs and
# the other way round).
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
same "-R missing" "$K -R h -f missing" "$O -R h -f missing"
same "-F missing" "$K -F h -f missing" "$O -F h -f missing"
finish
