/*
 * main.c: ssh-keygen's command line. The flags are OpenSSH's; each mode
 * flag (-y -l -B -p -c -F -H -R -s -L -k -Q -e -i) selects one function
 * of the other files, and no mode flag means "generate a key" -- or, as
 * OpenSSH ranks them below every other mode, -r (SSHFP records) and -A
 * (host keys) when given. -Y (SSH signatures) outranks them all: with it
 * -s names a signature file, -n a namespace, -I a signer and -r a KRL,
 * as in OpenSSH.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "keygen.h"

enum kg_mode {
	MODE_GENERATE, MODE_PUBLIC, MODE_FINGERPRINT, MODE_PASSPHRASE,
	MODE_COMMENT, MODE_FIND, MODE_HASH, MODE_REMOVE, MODE_SIGN,
	MODE_SHOWCERT, MODE_KRL, MODE_QUERY, MODE_EXPORT, MODE_IMPORT,
	MODE_SSHFP, MODE_HOSTKEYS, MODE_DOWNLOAD_SK,
};

static const struct {
	enum kg_mode mode;
	int (*fn)(struct kg_opts *);
} modes[] = {
	{ MODE_GENERATE, kg_generate },
	{ MODE_PUBLIC, kg_print_public },
	{ MODE_FINGERPRINT, kg_fingerprint },
	{ MODE_PASSPHRASE, kg_change_pass },
	{ MODE_COMMENT, kg_change_comment },
	{ MODE_FIND, kg_find_host },
	{ MODE_HASH, kg_hash_hosts },
	{ MODE_REMOVE, kg_remove_host },
	{ MODE_SIGN, kg_sign_certs },
	{ MODE_SHOWCERT, kg_show_cert },
	{ MODE_KRL, kg_gen_krl },
	{ MODE_QUERY, kg_query_krl },
	{ MODE_EXPORT, kg_export },
	{ MODE_IMPORT, kg_import },
	{ MODE_SSHFP, kg_print_sshfp },
	{ MODE_HOSTKEYS, kg_gen_host_keys },
	{ MODE_DOWNLOAD_SK, kg_download_sk },
};

static void
usage(void)
{
	fprintf(stderr,
	    "usage: ssh-keygen [-q] [-a rounds] [-b bits] [-C comment] "
	    "[-f output_keyfile]\n"
	    "                  [-m format] [-N new_passphrase] "
	    "[-t ecdsa | ecdsa-sk | ed25519 | ed25519-sk | rsa]\n"
	    "                  [-O option] [-w provider]\n"
	    "       ssh-keygen -p [-a rounds] [-f keyfile] [-m format] "
	    "[-N new_passphrase]\n"
	    "                   [-P old_passphrase]\n"
	    "       ssh-keygen -i [-f input_keyfile] [-m key_format]\n"
	    "       ssh-keygen -e [-f input_keyfile] [-m key_format]\n"
	    "       ssh-keygen -y [-f input_keyfile]\n"
	    "       ssh-keygen -c [-a rounds] [-C comment] [-f keyfile] "
	    "[-P passphrase]\n"
	    "       ssh-keygen -l [-v] [-E fingerprint_hash] "
	    "[-f input_keyfile]\n"
	    "       ssh-keygen -B [-f input_keyfile]\n"
	    "       ssh-keygen -F hostname [-lv] [-f known_hosts_file]\n"
	    "       ssh-keygen -H [-f known_hosts_file]\n"
	    "       ssh-keygen -R hostname [-f known_hosts_file]\n"
	    "       ssh-keygen -M generate [-O option] output_file\n"
	    "       ssh-keygen -M screen [-f input_file] [-O option] "
	    "output_file\n"
	    "       ssh-keygen -r hostname [-g] [-f input_keyfile]\n"
	    "       ssh-keygen -s ca_key -I certificate_identity [-hU] "
	    "[-n principals]\n"
	    "                  [-O option] [-V validity_interval] "
	    "[-z serial_number] file ...\n"
	    "       ssh-keygen -L [-f input_keyfile]\n"
	    "       ssh-keygen -A [-a rounds] [-f prefix_path]\n"
	    "       ssh-keygen -K [-a rounds] [-w provider]\n"
	    "       ssh-keygen -k [-u] -f krl_file [-s ca_public] "
	    "[-z version_number]\n"
	    "                  file ...\n"
	    "       ssh-keygen -Q [-l] -f krl_file [file ...]\n"
	    "       ssh-keygen -Y find-principals -s signature_file "
	    "-f allowed_signers_file\n"
	    "       ssh-keygen -Y match-principals -I signer_identity "
	    "-f allowed_signers_file\n"
	    "       ssh-keygen -Y check-novalidate -n namespace "
	    "-s signature_file\n"
	    "       ssh-keygen -Y sign -f key_file -n namespace file "
	    "[-O option] ...\n"
	    "       ssh-keygen -Y verify -f allowed_signers_file "
	    "-I signer_identity\n"
	    "                  -n namespace -s signature_file "
	    "[-r krl_file] [-O option]\n");
	exit(1);
}

/*
 * One flag into o. A mode flag sets *modep; the flags that also mean a
 * mode of their own (-B -l -H -s) set it only while nothing else has.
 */
static void
parse_flag(int ch, struct kg_opts *o, enum kg_mode *modep, int *delete_hostp)
{
	switch (ch) {
	case 'a':
		o->rounds = (unsigned int)strtoul(optarg, NULL, 10);
		break;
	case 'b':
		o->bits = (unsigned int)strtoul(optarg, NULL, 10);
		break;
	case 'C': o->comment = optarg; break;
	case 'D': o->pkcs11 = optarg; break;
	case 'A': o->gen_all = 1; break;
	case 'B':
		o->bubble = 1;
		if (*modep == MODE_GENERATE)
			*modep = MODE_FINGERPRINT;
		break;
	case 'E':
		if (key_fp_hash_from_name(optarg, &o->fp_hash) != 0) {
			kg_error("Invalid hash algorithm \"%s\"",
			    optarg);
			exit(255);
		}
		break;
	case 'e': *modep = MODE_EXPORT; break;
	case 'F': *modep = MODE_FIND; o->host = optarg; break;
	case 'f': o->file = optarg; break;
	case 'H':
		o->hash = 1;
		if (*modep == MODE_GENERATE)
			*modep = MODE_HASH;
		break;
	case 'g': o->generic = 1; break;
	case 'h': o->host_cert = 1; break;
	case 'I': o->key_id = optarg; break;
	case 'i': *modep = MODE_IMPORT; break;
	case 'k': *modep = MODE_KRL; break;
	case 'L': *modep = MODE_SHOWCERT; break;
	case 'l':
		o->list = 1;
		if (*modep == MODE_GENERATE)
			*modep = MODE_FINGERPRINT;
		break;
	case 'M':
		if (kg_moduli_op(optarg) != 0)
			exit(255);
		o->moduli_op = optarg;
		break;
	case 'm':
		if (kg_format(optarg) < 0) {
			kg_error("Unsupported conversion format "
			    "\"%s\"", optarg);
			exit(255);
		}
		o->format = optarg;
		break;
	case 'N': o->new_pass = optarg; break;
	case 'n': o->principals = optarg; break;
	case 'O':
		if (o->ncertopts >= KG_MAX_OPTS) {
			fprintf(stderr, "Too many options\n");
			exit(1);
		}
		o->certopts[o->ncertopts++] = optarg;
		break;
	case 'P': o->old_pass = optarg; break;
	case 'p': *modep = MODE_PASSPHRASE; break;
	case 'c': *modep = MODE_COMMENT; break;
	case 'Q': *modep = MODE_QUERY; break;
	case 'q': o->quiet = 1; break;
	case 'R':
		*modep = MODE_REMOVE;
		o->host = optarg;
		*delete_hostp = 1;
		break;
	case 'r': o->revoked = optarg; break;
	case 's':
		o->ca_key = optarg;
		if (*modep == MODE_GENERATE)
			*modep = MODE_SIGN;
		break;
	case 't': o->type = optarg; break;
	case 'U': o->require_agent = 1; break;
	case 'u': o->update_krl = 1; break;
	case 'V': o->validity = optarg; break;
	case 'v': o->verbose++; break;
	case 'y': *modep = MODE_PUBLIC; break;
	case 'w': o->sk_provider = optarg; break;
	case 'K': *modep = MODE_DOWNLOAD_SK; break;
	case 'Y': o->sign_op = optarg; break;
	case 'z': o->serial = optarg; o->have_serial = 1; break;
	default:
		usage();
	}
}

int
main(int argc, char **argv)
{
	struct kg_opts o;
	enum kg_mode mode = MODE_GENERATE;
	size_t i;
	int ch, r, delete_host = 0;

	memset(&o, 0, sizeof(o));
	o.prog = "ssh-keygen";
	o.fp_hash = KEY_FP_SHA256;
	while ((ch = getopt(argc, argv,
	    "ABHKLQUXceghiklopquvyC:D:E:F:I:M:N:O:P:R:V:Y:Z:a:b:f:g:m:n:r:"
	    "s:t:w:z:")) != -1)
		parse_flag(ch, &o, &mode, &delete_host);
	o.args = argv + optind;
	o.nargs = argc - optind;
	if (o.sign_op != NULL) {
		if ((r = kg_sshsig(&o)) < 0)
			usage();
		return r;
	}
	if (o.moduli_op != NULL && mode == MODE_GENERATE)
		return kg_moduli(&o);
	if (o.pkcs11 != NULL)
		return kg_download(&o);
	if (o.list && (delete_host || o.hash)) {
		kg_error("Cannot use -l with -H or -R.");
		usage();
	}
	o.rr_host = o.revoked;
	if (o.rr_host != NULL && mode == MODE_GENERATE)
		mode = MODE_SSHFP;
	else if (o.gen_all && mode == MODE_GENERATE)
		mode = MODE_HOSTKEYS;
	if (mode == MODE_SIGN && o.key_id == NULL) {
		fprintf(stderr, "Must specify key id (-I) when certifying\n");
		exit(1);
	}
	if (o.nargs > 0 && mode != MODE_SIGN && mode != MODE_KRL &&
	    mode != MODE_QUERY) {
		kg_error("Too many arguments.");
		usage();
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (modes[i].mode == mode)
			return modes[i].fn(&o);
	usage();
	return 1;
}
