/*
 * main.c: sftp-server, the SFTP subsystem program.
 *
 * sshd runs it as the logged-in user with the channel on stdin and
 * stdout. Its flags and the session are src/sftp's (sftp_server_main),
 * which sshd's internal-sftp runs too.
 */
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

#include "sftp_server.h"

int
main(int argc, char **argv)
{
	struct passwd *pw;

	if ((pw = getpwuid(getuid())) == NULL) {
		fprintf(stderr, "No user found for uid %lu\n",
		    (unsigned long)getuid());
		return 1;
	}
	return sftp_server_main(argc, argv, pw);
}
