/*
 * sftp_placeholder.c: the `sftp` program until the client exists.
 *
 * The build makes a program from the .c files here as well as putting those
 * files in the library, so this directory needs a main() of its own.
 * It is alone in its file: nothing else in the library refers to it, so
 * it never links into another program (each has its own main). The SFTP
 * client is not written yet; this says so and fails.
 */
#include <stdio.h>

int main(int, char **);

int
main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sftp: not implemented yet\n");
	return 1;
}
