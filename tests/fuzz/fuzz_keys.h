/*
 * fuzz_keys.h: fixed keys for fuzz_userauth and the seeds mkseeds.c
 * signs with (made by "sh tests/fuzz/mkseeds.sh keys" with ssh-keygen;
 * test data, not secrets). Seeds that carry signatures verify only with
 * these keys, so they change together.
 *
 *   user1    ed25519, listed in authorized_keys, the subject of cert1/2
 *   user2    ECDSA P-256, listed with restrict,pty,command=...,from=...
 *   user3    ed25519, listed but revoked (RevokedKeys)
 *   ca       ed25519, TrustedUserCAKeys and a cert-authority line
 *   host     ed25519, the client host's key for hostbased (known_hosts),
 *            and a host key of the server in fuzz_session / fuzz_fwd
 *   hostrsa  RSA 1024, another host key of the server there (user2 is
 *            the third), for hostkeys-00 and hostkeys-prove-00
 *   cert1    user1 signed by ca: principals fuzzuser,other, serial 7
 *   cert2    user1 signed by ca: principal fuzzuser, serial 8,
 *            force-command=/bin/true, source-address, no pty
 */
#ifndef MOAT_FUZZ_KEYS_H
#define MOAT_FUZZ_KEYS_H

static const char fz_key_user1[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACCDvPUHWmEcxuA2zk5QSRIS4BgJcc4U5ojVMvV0JcuxhAAAAJA83CvPPNwr\n"
	"zwAAAAtzc2gtZWQyNTUxOQAAACCDvPUHWmEcxuA2zk5QSRIS4BgJcc4U5ojVMvV0JcuxhA\n"
	"AAAEDp8E042x5tDHbNfS1tSdEk6J5N9RM5C0CEqBSSK+0IO4O89QdaYRzG4DbOTlBJEhLg\n"
	"GAlxzhTmiNUy9XQly7GEAAAADHVzZXItZWQyNTUxOQE=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_user1[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIO89QdaYRzG4DbOTlBJEhLgGAlxzhTmiN"
	"Uy9XQly7GE user-ed25519\n";

static const char fz_key_user2[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAaAAAABNlY2RzYS\n"
	"1zaGEyLW5pc3RwMjU2AAAACG5pc3RwMjU2AAAAQQQ4h4EOd6bGd/rUnxp3bEzZzc/DjRm0\n"
	"Bj+k5RUi8X8e96Qh5jGlO869WI7T45a9VCr4PZfy00UxA6qz9S1Qci9DAAAAqELZQLVC2U\n"
	"C1AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBDiHgQ53psZ3+tSf\n"
	"GndsTNnNz8ONGbQGP6TlFSLxfx73pCHmMaU7zr1YjtPjlr1UKvg9l/LTRTEDqrP1LVByL0\n"
	"MAAAAhAJBAL0EP5BYfd8Y998qIR2iQAmusOOOTpNGOUZ2/xmzEAAAACnVzZXItZWNkc2EB\n"
	"AgMEBQ==\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_user2[] =
	"ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAA"
	"BBBDiHgQ53psZ3+tSfGndsTNnNz8ONGbQGP6TlFSLxfx73pCHmMaU7zr1YjtPjlr1UKvg9"
	"l/LTRTEDqrP1LVByL0M= user-ecdsa\n";

static const char fz_key_user3[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACCFjo1L/QqRqatcSaWV+Wl4Fr5ERPzxZdRa7hvaOcjHpAAAAJBA9ZDTQPWQ\n"
	"0wAAAAtzc2gtZWQyNTUxOQAAACCFjo1L/QqRqatcSaWV+Wl4Fr5ERPzxZdRa7hvaOcjHpA\n"
	"AAAEDRKrXmQMFZHe4r2wzPwPmnENoiWv6QC38m1Af45x26XYWOjUv9CpGpq1xJpZX5aXgW\n"
	"vkRE/PFl1FruG9o5yMekAAAADHVzZXItcmV2b2tlZAE=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_user3[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIWOjUv9CpGpq1xJpZX5aXgWvkRE/PFl1F"
	"ruG9o5yMek user-revoked\n";

static const char fz_key_ca[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACBM3xkskFPq2cotKn127mSOfiHUy1STukUi6wd9TgwyhwAAAJBdsROQXbET\n"
	"kAAAAAtzc2gtZWQyNTUxOQAAACBM3xkskFPq2cotKn127mSOfiHUy1STukUi6wd9Tgwyhw\n"
	"AAAECttQtHm1O6Jnm1FArDhaVWF670QCeVDqHmwP36I0oPekzfGSyQU+rZyi0qfXbuZI5+\n"
	"IdTLVJO6RSLrB31ODDKHAAAAB3VzZXItY2EBAgMEBQY=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_ca[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEzfGSyQU+rZyi0qfXbuZI5+IdTLVJO6RS"
	"LrB31ODDKH user-ca\n";

static const char fz_key_host[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACCmhKUflRO41uIdkquOkJJiXzMRn8A4oae/HdN7YG0vxQAAAJDQ1jAb0NYw\n"
	"GwAAAAtzc2gtZWQyNTUxOQAAACCmhKUflRO41uIdkquOkJJiXzMRn8A4oae/HdN7YG0vxQ\n"
	"AAAEB1wcFZ4CBP2EMy6opJ69+M7ARAvSub19z6VUurBscsXKaEpR+VE7jW4h2Sq46QkmJf\n"
	"MxGfwDihp78d03tgbS/FAAAACGZ1enpob3N0AQIDBAU=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_host[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKaEpR+VE7jW4h2Sq46QkmJfMxGfwDihp7"
	"8d03tgbS/F fuzzhost\n";

static const char fz_key_hostrsa[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAlwAAAAdzc2gtcn\n"
	"NhAAAAAwEAAQAAAIEAy0QnyoC4FeQ/Bq6U+Sk3Z30e7kjZYqB8nQcYsxwHZmbNKtmiO+lX\n"
	"WYnVcLl0UmTSCqBksKAgvouhSxv5i0sfM6E6bduV45YMyzLmLbzyQi2bAVf/hxwyATgRJ7\n"
	"QPr+k76Ge9Qf2gFW/NRzmdo/ncrXCGAJG2VijhRIR39T7NWmMAAAIIvdZegL3WXoAAAAAH\n"
	"c3NoLXJzYQAAAIEAy0QnyoC4FeQ/Bq6U+Sk3Z30e7kjZYqB8nQcYsxwHZmbNKtmiO+lXWY\n"
	"nVcLl0UmTSCqBksKAgvouhSxv5i0sfM6E6bduV45YMyzLmLbzyQi2bAVf/hxwyATgRJ7QP\n"
	"r+k76Ge9Qf2gFW/NRzmdo/ncrXCGAJG2VijhRIR39T7NWmMAAAADAQABAAAAgEb2pG2uQp\n"
	"Zh+R78FEZofU9D/2hxRnOIU/j+YUEmp+64NSigkmMYM8auuDWCiXm6eRn8pSqEvOnJFaaD\n"
	"PbvDnkBoy85EH2E+LlGSFw2wkB2CSPA999IFQcIuW151Kc90LDG9kcZ3uum+ilHpdjJPSs\n"
	"Kq5nfYxZRmXf11eU8Sf9wBAAAAQGHzqcxfJ7sy4M4AT++8jh8nNFS+YFF9NZWYI4wLVsKj\n"
	"FWIW5bTumITi8EwPPoo4vq41iWwtq9X0/mnfUtsd9yYAAABBAOvAtu9cMTNuPXYBk5xALQ\n"
	"gsL4uLyv1u4ZSufq56194lc0CgjvOKRbnhMLl1kOnrcGTYkcICA5jIm3AsO3Z56tEAAABB\n"
	"ANy5MB7qJsaybYJvhlmmHBnnRboaC6Nf3NyzE4iIQsMrhBTQCIFMN521ez9CnevQGP/Chs\n"
	"8EYGSRRx21TBbtlvMAAAAMZnV6emhvc3QtcnNhAQIDBAUGBw==\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_hostrsa[] =
	"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDLRCfKgLgV5D8GrpT5KTdnfR7uSNlioH"
	"ydBxizHAdmZs0q2aI76VdZidVwuXRSZNIKoGSwoCC+i6FLG/mLSx8zoTpt25XjlgzLMuYt"
	"vPJCLZsBV/+HHDIBOBEntA+v6TvoZ71B/aAVb81HOZ2j+dytcIYAkbZWKOFEhHf1Ps1aYw"
	"== fuzzhost-rsa\n";

static const char fz_pub_cert1[] =
	"ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZ"
	"W5zc2guY29tAAAAINs1l+sdPGbPa/x1ndwupXP9gcdatuoxPSysFwCEHqX7AAAAIIO89Qd"
	"aYRzG4DbOTlBJEhLgGAlxzhTmiNUy9XQly7GEAAAAAAAAAAcAAAABAAAACWZ1enotY2Vyd"
	"AAAABUAAAAIZnV6enVzZXIAAAAFb3RoZXIAAAAAAAAAAP//////////AAAAAAAAAIIAAAA"
	"VcGVybWl0LVgxMS1mb3J3YXJkaW5nAAAAAAAAABdwZXJtaXQtYWdlbnQtZm9yd2FyZGluZ"
	"wAAAAAAAAAWcGVybWl0LXBvcnQtZm9yd2FyZGluZwAAAAAAAAAKcGVybWl0LXB0eQAAAAA"
	"AAAAOcGVybWl0LXVzZXItcmMAAAAAAAAAAAAAADMAAAALc3NoLWVkMjU1MTkAAAAgTN8ZL"
	"JBT6tnKLSp9du5kjn4h1MtUk7pFIusHfU4MMocAAABTAAAAC3NzaC1lZDI1NTE5AAAAQAN"
	"Sv+CA+sKJaleGTbyhnO3nmKd3Bgr4Z7zC5wKNADZbn0wjZtjBwuwZwjO2WqrqWK4UnnwBk"
	"0yeQRSl3mF+Yw4= user-ed25519\n";

static const char fz_pub_cert2[] =
	"ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZ"
	"W5zc2guY29tAAAAIDMq30MNd6MKJizZPi0e73kEaeORdhPKpAdDAMrYR/G8AAAAIIO89Qd"
	"aYRzG4DbOTlBJEhLgGAlxzhTmiNUy9XQly7GEAAAAAAAAAAgAAAABAAAAEGZ1enotY2Vyd"
	"C1mb3JjZWQAAAAMAAAACGZ1enp1c2VyAAAAAAAAAAD//////////wAAAEwAAAANZm9yY2U"
	"tY29tbWFuZAAAAA0AAAAJL2Jpbi90cnVlAAAADnNvdXJjZS1hZGRyZXNzAAAAFAAAABAxM"
	"jcuMC4wLjEvMzIsOjoxAAAAcAAAABVwZXJtaXQtWDExLWZvcndhcmRpbmcAAAAAAAAAF3B"
	"lcm1pdC1hZ2VudC1mb3J3YXJkaW5nAAAAAAAAABZwZXJtaXQtcG9ydC1mb3J3YXJkaW5nA"
	"AAAAAAAAA5wZXJtaXQtdXNlci1yYwAAAAAAAAAAAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB"
	"M3xkskFPq2cotKn127mSOfiHUy1STukUi6wd9TgwyhwAAAFMAAAALc3NoLWVkMjU1MTkAA"
	"ABAR323H4vT8LzcuXnTLKHl21mGiBle4oGpOTalPBwBW5KZp2DfkQQNQsLmJAJxnHuJbvl"
	"McpTSuIAjKL5ZJMOqBw== user-ed25519\n";

#endif
