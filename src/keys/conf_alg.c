/*
 * conf_alg.c: the algorithm-list rows of the configuration readers
 * (conf_alg.h).
 */
#include "cert.h"
#include "cipher.h"
#include "conf_alg.h"
#include "kexalg.h"
#include "key.h"
#include "mac.h"
#include "match.h"

static const char *
sigalg_defaults(void)
{
	/*
	 * OpenSSH 10.5's default, ssh's and sshd's alike (9.2's plus the
	 * webauthn names), filtered later against what we support.
	 */
	return "ssh-ed25519-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp256-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp384-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp521-cert-v01@openssh.com,"
	    "sk-ssh-ed25519-cert-v01@openssh.com,"
	    "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256-cert-v01@openssh.com,"
	    "rsa-sha2-512-cert-v01@openssh.com,"
	    "rsa-sha2-256-cert-v01@openssh.com,"
	    "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,"
	    "ecdsa-sha2-nistp521,sk-ssh-ed25519@openssh.com,"
	    "sk-ecdsa-sha2-nistp256@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,"
	    "rsa-sha2-512,rsa-sha2-256";
}

static const char *
ca_sigalg_defaults(void)
{
	/* OpenSSH 10.5's CASignatureAlgorithms default. */
	return "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,"
	    "ecdsa-sha2-nistp521,sk-ssh-ed25519@openssh.com,"
	    "sk-ecdsa-sha2-nistp256@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,"
	    "rsa-sha2-512,rsa-sha2-256";
}

const struct conf_alg conf_alg_cipher = {
	cipher_default_names, cipher_all_names, 0, "SSH2 cipher spec" };
const struct conf_alg conf_alg_mac = {
	mac_default_names, mac_all_names, 0, "SSH2 mac spec" };
const struct conf_alg conf_alg_kex = {
	kexalg_default_names, kexalg_all_names, 0, "SSH2 KexAlgorithms" };
const struct conf_alg conf_alg_kex_server = {
	kexalg_server_default_names, kexalg_all_names, 0,
	"SSH2 KexAlgorithms" };
const struct conf_alg conf_alg_sig = {
	sigalg_defaults, cert_sigalg_all_names, 1, "key types" };
const struct conf_alg conf_alg_ca = {
	ca_sigalg_defaults, key_sigalg_all_names, 1, "key types" };

int
conf_alg_resolve(const struct conf_alg *alg, const char *spec, char **outp)
{
	*outp = NULL;
	return match_assemble_list(alg->defaults(), alg->all(), spec, outp);
}
