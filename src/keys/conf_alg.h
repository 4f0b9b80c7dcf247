/*
 * conf_alg.h: the algorithm-list keywords of sshd_config and ssh_config
 * (Ciphers, MACs, KexAlgorithms, the key-type lists): one row each for
 * where the default and the full list come from and what an error calls
 * the list. Both configuration readers use these rows, so the defaults
 * and the accepted names come from the algorithm tables in one place.
 */
#ifndef MOAT_CONF_ALG_H
#define MOAT_CONF_ALG_H

struct conf_alg {
	const char *(*defaults)(void);
	const char *(*all)(void);
	int patterns_ok;	/* sshd takes wildcards for key types */
	const char *what;	/* for "Bad <what> '...'" */
};

extern const struct conf_alg conf_alg_cipher, conf_alg_mac, conf_alg_kex,
    conf_alg_kex_server, conf_alg_sig, conf_alg_ca;

/*
 * The list a spec ("+x", "-y", "^z", "a,b" or NULL for the default)
 * makes for row alg; caller frees *outp. 0 or an ERR_* code.
 */
int conf_alg_resolve(const struct conf_alg *alg, const char *spec,
    char **outp);

#endif
