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
	cert_sigalg_default_names, cert_sigalg_all_names, 1, "key types" };
const struct conf_alg conf_alg_ca = {
	cert_ca_sigalg_default_names, key_sigalg_all_names, 1, "key types" };

int
conf_alg_resolve(const struct conf_alg *alg, const char *spec, char **outp)
{
	*outp = NULL;
	return match_assemble_list(alg->defaults(), alg->all(), spec, outp);
}
