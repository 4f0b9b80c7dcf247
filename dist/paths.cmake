# dist/paths.cmake: the directories compiled into the programs
# (src/core/installdirs.h) and used by `make install` (dist/install.cmake),
# derived from CMAKE_INSTALL_PREFIX as Debian lays out OpenSSH with the
# prefix /usr:
#
#   MOAT_SBINDIR     PREFIX/sbin               sshd
#   MOAT_BINDIR      PREFIX/bin                ssh, ssh-keygen, ...
#   MOAT_LIBEXECDIR  PREFIX/lib/openssh        ssh-keysign, sftp-server, ssh-sk-helper
#   MOAT_SSHDIR      SYSCONFDIR/ssh            sshd_config, ssh_config,
#                                              host keys
#   MOAT_UNITDIR     PREFIX/lib/systemd/system ssh.service
#   MOAT_PAMDIR      /etc/pam.d                (libpam reads nowhere else)
#   MOAT_MANDIR      PREFIX/share/man
#
# SYSCONFDIR is GNUInstallDirs' for the prefix: /etc for /usr,
# /etc/opt/NAME for /opt/NAME, else PREFIX/etc (OpenSSH's own default
# for /usr/local). A build whose prefix nobody chose (`make build`,
# `make asan`: the builds the tests run) reads the system's /etc/ssh,
# as the OpenSSH it runs beside does; `make install` configures its own
# build with the prefix it is given.
#
# Each can be set on the cmake command line (-DMOAT_SSHDIR=/etc/ssh);
# left empty it follows the prefix, even when the prefix changes later.

include(GNUInstallDirs)

# Whether the prefix was ever chosen, remembered across runs: cmake says
# it was left at its default only on the first run.
if(NOT DEFINED MOAT_PREFIX_SEEN)
	if(CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT)
		set(MOAT_PREFIX_CHOSEN OFF CACHE INTERNAL "")
	else()
		set(MOAT_PREFIX_CHOSEN ON CACHE INTERNAL "")
	endif()
	set(MOAT_PREFIX_SEEN "${CMAKE_INSTALL_PREFIX}" CACHE INTERNAL "")
elseif(NOT "${CMAKE_INSTALL_PREFIX}" STREQUAL "${MOAT_PREFIX_SEEN}")
	set(MOAT_PREFIX_CHOSEN ON CACHE INTERNAL "")
	set(MOAT_PREFIX_SEEN "${CMAKE_INSTALL_PREFIX}" CACHE INTERNAL "")
endif()

if(MOAT_PREFIX_CHOSEN)
	set(moat_sysconf "${CMAKE_INSTALL_FULL_SYSCONFDIR}")
else()
	set(moat_sysconf "/etc")
endif()

# moat_path(VAR default doc): VAR from the command line, else default.
macro(moat_path var default doc)
	set(${var} "" CACHE PATH "${doc} (empty: from the prefix)")
	if("${${var}}" STREQUAL "")
		set(${var} "${default}")
	endif()
endmacro()

moat_path(MOAT_SBINDIR "${CMAKE_INSTALL_PREFIX}/sbin" "sshd")
moat_path(MOAT_BINDIR "${CMAKE_INSTALL_PREFIX}/bin" "ssh, ssh-keygen, ...")
moat_path(MOAT_LIBEXECDIR "${CMAKE_INSTALL_PREFIX}/lib/openssh"
	"ssh-keysign, sftp-server, ssh-sk-helper")
moat_path(MOAT_SSHDIR "${moat_sysconf}/ssh"
	"sshd_config, ssh_config and host keys")
moat_path(MOAT_UNITDIR "${CMAKE_INSTALL_PREFIX}/lib/systemd/system"
	"systemd units")
moat_path(MOAT_PAMDIR "/etc/pam.d" "PAM service files")
moat_path(MOAT_MANDIR "${CMAKE_INSTALL_PREFIX}/share/man" "manual pages")
