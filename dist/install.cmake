# dist/install.cmake: what `make install` (cmake --install) lays out, as
# Debian's openssh-server, openssh-client and openssh-sftp-server do,
# under the directories of dist/paths.cmake:
#
#   sbin/sshd; bin/ssh, ssh-keygen, ssh-keyscan, sftp, scp, ssh-agent,
#   ssh-add; lib/openssh/ssh-keysign (setuid root when installed by
#   root), lib/openssh/sftp-server, ssh-pkcs11-helper; the manual pages;
#   SSHDIR/sshd_config, ssh_config and the empty sshd_config.d and
#   ssh_config.d; /etc/pam.d/sshd; lib/systemd/system/ssh.service.
#
# A configuration file (sshd_config, ssh_config, the PAM service) that
# already exists is never replaced: it is the administrator's. Programs,
# manual pages and the unit are replaced, as a package upgrade does.
#
# The programs look for their files where the prefix chosen when the
# build was configured says (src/core/installdirs.h), so that is the prefix
# to install to; DESTDIR moves the whole tree for a package build.

set(MOAT_KEYSIGN_MODE "4755" CACHE STRING
	"Mode of ssh-keysign when installed by root (Debian's: 4755)")

# The generated files: dist/*.in with the paths filled in.
if(MOAT_PRIVSEP_PATH MATCHES "^/run/(.+)$")
	set(MOAT_RUNTIME_DIR "${CMAKE_MATCH_1}")
else()
	set(MOAT_RUNTIME_DIR "sshd")
endif()
foreach(f sshd_config ssh_config ssh.service)
	configure_file(${CMAKE_SOURCE_DIR}/dist/${f}.in
		${CMAKE_BINARY_DIR}/dist/${f} @ONLY)
endforeach()

# The same paths for scripts (tests/interop/install_layout.sh).
file(WRITE ${CMAKE_BINARY_DIR}/dist/paths.sh
	"# What ${CMAKE_SOURCE_DIR}/dist/paths.cmake chose (generated).\n"
	"PREFIX='${CMAKE_INSTALL_PREFIX}'\nSBINDIR='${MOAT_SBINDIR}'\n"
	"BINDIR='${MOAT_BINDIR}'\nLIBEXECDIR='${MOAT_LIBEXECDIR}'\n"
	"SSHDIR='${MOAT_SSHDIR}'\nUNITDIR='${MOAT_UNITDIR}'\n"
	"PAMDIR='${MOAT_PAMDIR}'\nMANDIR='${MOAT_MANDIR}'\n"
	"KEYSIGN_MODE='${MOAT_KEYSIGN_MODE}'\n")

# Every installed program, for `cmake --build --target programs`.
add_custom_target(programs DEPENDS ${MOAT_BUILT_PROGRAMS})

# First: the prefix at install time must be the one compiled in.
install(CODE "
if(NOT \"\${CMAKE_INSTALL_PREFIX}\" STREQUAL \"${CMAKE_INSTALL_PREFIX}\")
	message(FATAL_ERROR \"moat was configured for the prefix \"
	    \"${CMAKE_INSTALL_PREFIX}, where its programs look for their \"
	    \"files: configure with -DCMAKE_INSTALL_PREFIX=\"
	    \"\${CMAKE_INSTALL_PREFIX} (or make install PREFIX=...) rather \"
	    \"than installing elsewhere\")
endif()")

foreach(name ${MOAT_BUILT_PROGRAMS})
	if(name STREQUAL "sshd")
		install(TARGETS ${name} DESTINATION ${MOAT_SBINDIR})
	elseif(name STREQUAL "ssh-keysign" OR name STREQUAL "sftp-server" OR
	    name STREQUAL "ssh-pkcs11-helper" OR name STREQUAL "ssh-sk-helper")
		install(TARGETS ${name} DESTINATION ${MOAT_LIBEXECDIR})
	else()
		install(TARGETS ${name} DESTINATION ${MOAT_BINDIR})
	endif()
	if(EXISTS ${CMAKE_SOURCE_DIR}/man/${name}.8)
		install(FILES man/${name}.8 DESTINATION ${MOAT_MANDIR}/man8)
	elseif(EXISTS ${CMAKE_SOURCE_DIR}/man/${name}.1)
		install(FILES man/${name}.1 DESTINATION ${MOAT_MANDIR}/man1)
	endif()
endforeach()
file(GLOB MOAT_MAN5 ${CMAKE_SOURCE_DIR}/man/*.5)
install(FILES ${MOAT_MAN5} DESTINATION ${MOAT_MANDIR}/man5)

# ssh-keysign reads the host private keys for ssh's hostbased logins,
# so it is setuid root, as Debian installs it; an install by another
# user cannot give it root's rights and leaves it 0755.
if("ssh-keysign" IN_LIST MOAT_BUILT_PROGRAMS)
	install(CODE "
set(f \"\$ENV{DESTDIR}${MOAT_LIBEXECDIR}/ssh-keysign\")
execute_process(COMMAND id -u OUTPUT_VARIABLE uid
    OUTPUT_STRIP_TRAILING_WHITESPACE)
if(uid STREQUAL \"0\")
	execute_process(COMMAND chown root:root \"\${f}\")
	execute_process(COMMAND chmod ${MOAT_KEYSIGN_MODE} \"\${f}\"
	    RESULT_VARIABLE rc)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR \"chmod ${MOAT_KEYSIGN_MODE} \${f} failed\")
	endif()
	message(STATUS \"setuid root: \${f}\")
else()
	message(STATUS \"not root: \${f} is not setuid; as root: \"
	    \"chown root \${f} && chmod ${MOAT_KEYSIGN_MODE} \${f}\")
endif()")
endif()

# moat_install_conf(SRC DIR NAME): SRC as DIR/NAME (0644), unless a
# file is there already.
function(moat_install_conf src dir name)
	install(CODE "
if(EXISTS \"\$ENV{DESTDIR}${dir}/${name}\")
	message(STATUS \"Kept: \$ENV{DESTDIR}${dir}/${name}\")
else()
	file(INSTALL DESTINATION \"${dir}\" TYPE FILE RENAME \"${name}\"
	    PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
	    FILES \"${src}\")
endif()")
endfunction()

install(DIRECTORY DESTINATION ${MOAT_SSHDIR}/sshd_config.d)
install(DIRECTORY DESTINATION ${MOAT_SSHDIR}/ssh_config.d)
moat_install_conf(${CMAKE_BINARY_DIR}/dist/sshd_config ${MOAT_SSHDIR}
	sshd_config)
moat_install_conf(${CMAKE_BINARY_DIR}/dist/ssh_config ${MOAT_SSHDIR}
	ssh_config)
moat_install_conf(${CMAKE_SOURCE_DIR}/dist/pam.sshd ${MOAT_PAMDIR} sshd)
install(FILES ${CMAKE_BINARY_DIR}/dist/ssh.service
	DESTINATION ${MOAT_UNITDIR})
