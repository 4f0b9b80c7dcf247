/*
 * installdirs.h: the directories compiled into the programs.
 *
 * The build (CMakeLists.txt) sets them from the install prefix, so an
 * installed sshd reads its sshd_config and host keys, and ssh finds
 * ssh_config and ssh-keysign, where `make install` put them. With no
 * setting (a compiler run outside the build, as the fuzz targets are
 * built) they are Debian's OpenSSH's.
 *
 *   MOAT_SSHDIR      sshd_config, ssh_config, host keys, moduli,
 *                    ssh_known_hosts, Include's relative base
 *   MOAT_LIBEXECDIR  helper programs: ssh-keysign, sftp-server
 */
#ifndef MOAT_INSTALLDIRS_H
#define MOAT_INSTALLDIRS_H

#ifndef MOAT_SSHDIR
#define MOAT_SSHDIR		"/etc/ssh"
#endif
#ifndef MOAT_LIBEXECDIR
#define MOAT_LIBEXECDIR		"/usr/lib/openssh"
#endif

#endif
