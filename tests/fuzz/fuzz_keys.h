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
 *   host     ed25519, the client host's key for hostbased (known_hosts)
 *   cert1    user1 signed by ca: principals fuzzuser,other, serial 7
 *   cert2    user1 signed by ca: principal fuzzuser, serial 8,
 *            force-command=/bin/true, source-address, no pty
 */
#ifndef MOAT_FUZZ_KEYS_H
#define MOAT_FUZZ_KEYS_H

static const char fz_key_user1[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACAdKF2rEqxnk8hlmBJAEQtqvajZ8Y/aDbQL8mTZJCdW2AAAAJD551MJ+edT\n"
	"CQAAAAtzc2gtZWQyNTUxOQAAACAdKF2rEqxnk8hlmBJAEQtqvajZ8Y/aDbQL8mTZJCdW2A\n"
	"AAAEDjCelsKmcMBN4FZFBGpvQUCtSyGBYV3UqzJS2vb5oaMR0oXasSrGeTyGWYEkARC2q9\n"
	"qNnxj9oNtAvyZNkkJ1bYAAAADHVzZXItZWQyNTUxOQE=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_user1[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0oXasSrGeTyGWYEkARC2q9qNnxj9oNtA"
	"vyZNkkJ1bY user-ed25519\n";

static const char fz_key_user2[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAaAAAABNlY2RzYS\n"
	"1zaGEyLW5pc3RwMjU2AAAACG5pc3RwMjU2AAAAQQShLGyyNwdMeF5N7qsv2zas2b2e02Wl\n"
	"Ldh7pUfugCJPkWXiq4VWdgT3dZm629QmwKHu8eXVI5cSedXeaB42kmNlAAAAqKcVvfanFb\n"
	"32AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBKEsbLI3B0x4Xk3u\n"
	"qy/bNqzZvZ7TZaUt2HulR+6AIk+RZeKrhVZ2BPd1mbrb1CbAoe7x5dUjlxJ51d5oHjaSY2\n"
	"UAAAAhAId3FZ5GhLdHdIKyfrJxqxLOESFqpCvh3vdcn6LcXNW1AAAACnVzZXItZWNkc2EB\n"
	"AgMEBQ==\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_user2[] =
	"ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAA"
	"BBBKEsbLI3B0x4Xk3uqy/bNqzZvZ7TZaUt2HulR+6AIk+RZeKrhVZ2BPd1mbrb1CbAoe7x"
	"5dUjlxJ51d5oHjaSY2U= user-ecdsa\n";

static const char fz_key_user3[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACDKE7N+7hjshzLjMvHamWL3hvS4m2ZeIRwMENfMfc4iiAAAAJBVTqkxVU6p\n"
	"MQAAAAtzc2gtZWQyNTUxOQAAACDKE7N+7hjshzLjMvHamWL3hvS4m2ZeIRwMENfMfc4iiA\n"
	"AAAED1YpvVLO9euae1maJ3BBmb9L/R5FFlhdAUBqwiVR/x0MoTs37uGOyHMuMy8dqZYveG\n"
	"9LibZl4hHAwQ18x9ziKIAAAADHVzZXItcmV2b2tlZAE=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_user3[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMoTs37uGOyHMuMy8dqZYveG9LibZl4hHA"
	"wQ18x9ziKI user-revoked\n";

static const char fz_key_ca[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACCHqEmigRTbRg4GOoUmmoSNqqs3fhlmWGVMruKxAo5iHQAAAJC6i9nDuovZ\n"
	"wwAAAAtzc2gtZWQyNTUxOQAAACCHqEmigRTbRg4GOoUmmoSNqqs3fhlmWGVMruKxAo5iHQ\n"
	"AAAEB4PGr73HsA40pRvPNHj8rpvdBL7wKzZKo6jMPbgk8sZIeoSaKBFNtGDgY6hSaahI2q\n"
	"qzd+GWZYZUyu4rECjmIdAAAAB3VzZXItY2EBAgMEBQY=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_ca[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIeoSaKBFNtGDgY6hSaahI2qqzd+GWZYZU"
	"yu4rECjmId user-ca\n";

static const char fz_key_host[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACDBsYsNukhi5v+VfMoKPG4ehnFh8d1cT5aOXXiQA3uA8QAAAJCV9C8jlfQv\n"
	"IwAAAAtzc2gtZWQyNTUxOQAAACDBsYsNukhi5v+VfMoKPG4ehnFh8d1cT5aOXXiQA3uA8Q\n"
	"AAAEAm6XafetNhY1T3M8HU5Jr6DmfL4ZCUgghQjKeJNbzGdsGxiw26SGLm/5V8ygo8bh6G\n"
	"cWHx3VxPlo5deJADe4DxAAAACGZ1enpob3N0AQIDBAU=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fz_pub_host[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMGxiw26SGLm/5V8ygo8bh6GcWHx3VxPlo"
	"5deJADe4Dx fuzzhost\n";

static const char fz_pub_cert1[] =
	"ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZ"
	"W5zc2guY29tAAAAIMeaK936QMW8Fp4YGJ8WZM30WjUrDB2Ym1sZo3Zpfbn2AAAAIB0oXas"
	"SrGeTyGWYEkARC2q9qNnxj9oNtAvyZNkkJ1bYAAAAAAAAAAcAAAABAAAACWZ1enotY2Vyd"
	"AAAABUAAAAIZnV6enVzZXIAAAAFb3RoZXIAAAAAAAAAAP//////////AAAAAAAAAIIAAAA"
	"VcGVybWl0LVgxMS1mb3J3YXJkaW5nAAAAAAAAABdwZXJtaXQtYWdlbnQtZm9yd2FyZGluZ"
	"wAAAAAAAAAWcGVybWl0LXBvcnQtZm9yd2FyZGluZwAAAAAAAAAKcGVybWl0LXB0eQAAAAA"
	"AAAAOcGVybWl0LXVzZXItcmMAAAAAAAAAAAAAADMAAAALc3NoLWVkMjU1MTkAAAAgh6hJo"
	"oEU20YOBjqFJpqEjaqrN34ZZlhlTK7isQKOYh0AAABTAAAAC3NzaC1lZDI1NTE5AAAAQMz"
	"VdwqPcMzD4+t9JuzcXK5badqoA7kzBi4Hipbwvk7Lrcpk8NgjZ85Ks7guXSiQaTNaUThzT"
	"ODWtBl77sgVNwA= user-ed25519\n";

static const char fz_pub_cert2[] =
	"ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZ"
	"W5zc2guY29tAAAAIAswhGcHmthgaSq76FKU49nS+ITXuhE1H4ad7t74nm2FAAAAIB0oXas"
	"SrGeTyGWYEkARC2q9qNnxj9oNtAvyZNkkJ1bYAAAAAAAAAAgAAAABAAAAEGZ1enotY2Vyd"
	"C1mb3JjZWQAAAAMAAAACGZ1enp1c2VyAAAAAAAAAAD//////////wAAAEwAAAANZm9yY2U"
	"tY29tbWFuZAAAAA0AAAAJL2Jpbi90cnVlAAAADnNvdXJjZS1hZGRyZXNzAAAAFAAAABAxM"
	"jcuMC4wLjEvMzIsOjoxAAAAcAAAABVwZXJtaXQtWDExLWZvcndhcmRpbmcAAAAAAAAAF3B"
	"lcm1pdC1hZ2VudC1mb3J3YXJkaW5nAAAAAAAAABZwZXJtaXQtcG9ydC1mb3J3YXJkaW5nA"
	"AAAAAAAAA5wZXJtaXQtdXNlci1yYwAAAAAAAAAAAAAAMwAAAAtzc2gtZWQyNTUxOQAAACC"
	"HqEmigRTbRg4GOoUmmoSNqqs3fhlmWGVMruKxAo5iHQAAAFMAAAALc3NoLWVkMjU1MTkAA"
	"ABASmlIAO1pE4W7OHjw0xxRaHgDCz9OpPuVZNN0eqXMNxLtiMs/ejjFrBGmhqQQj+E4+bt"
	"uSLVl7JGl1qVArTqdAw== user-ed25519\n";

#endif
