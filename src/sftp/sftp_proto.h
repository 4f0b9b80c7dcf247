/*
 * sftp_proto.h: the SSH File Transfer Protocol, version 3, on the wire.
 *
 * Numbers come from draft-ietf-secsh-filexfer-02 (packet types, status
 * codes, attribute and open flags) and from OpenSSH's extensions (statvfs
 * flags). A packet is uint32 length, byte type, then (for all but INIT and
 * VERSION) a uint32 request id and the request's fields.
 *
 * struct sftp_attrs is the ATTRS record: a flags word saying which fields
 * follow. sftp_attrs_decode() reads it through the sbuf getters only, so a
 * record from a hostile peer can at worst fail to parse; extended pairs
 * are read and dropped (the count is bounded by the bytes present).
 */
#ifndef MOAT_SFTP_PROTO_H
#define MOAT_SFTP_PROTO_H

#include <stdint.h>
#include <sys/stat.h>

struct sbuf;

#define SFTP_PROTO_VERSION	3

/* Packet types. */
#define SSH2_FXP_INIT			1
#define SSH2_FXP_VERSION		2
#define SSH2_FXP_OPEN			3
#define SSH2_FXP_CLOSE			4
#define SSH2_FXP_READ			5
#define SSH2_FXP_WRITE			6
#define SSH2_FXP_LSTAT			7
#define SSH2_FXP_FSTAT			8
#define SSH2_FXP_SETSTAT		9
#define SSH2_FXP_FSETSTAT		10
#define SSH2_FXP_OPENDIR		11
#define SSH2_FXP_READDIR		12
#define SSH2_FXP_REMOVE			13
#define SSH2_FXP_MKDIR			14
#define SSH2_FXP_RMDIR			15
#define SSH2_FXP_REALPATH		16
#define SSH2_FXP_STAT			17
#define SSH2_FXP_RENAME			18
#define SSH2_FXP_READLINK		19
#define SSH2_FXP_SYMLINK		20
#define SSH2_FXP_STATUS			101
#define SSH2_FXP_HANDLE			102
#define SSH2_FXP_DATA			103
#define SSH2_FXP_NAME			104
#define SSH2_FXP_ATTRS			105
#define SSH2_FXP_EXTENDED		200
#define SSH2_FXP_EXTENDED_REPLY		201

/* Attribute flags. */
#define SSH2_FILEXFER_ATTR_SIZE		0x00000001
#define SSH2_FILEXFER_ATTR_UIDGID	0x00000002
#define SSH2_FILEXFER_ATTR_PERMISSIONS	0x00000004
#define SSH2_FILEXFER_ATTR_ACMODTIME	0x00000008
#define SSH2_FILEXFER_ATTR_EXTENDED	0x80000000

/* Open flags. */
#define SSH2_FXF_READ			0x00000001
#define SSH2_FXF_WRITE			0x00000002
#define SSH2_FXF_APPEND			0x00000004
#define SSH2_FXF_CREAT			0x00000008
#define SSH2_FXF_TRUNC			0x00000010
#define SSH2_FXF_EXCL			0x00000020

/* Status codes. */
#define SSH2_FX_OK			0
#define SSH2_FX_EOF			1
#define SSH2_FX_NO_SUCH_FILE		2
#define SSH2_FX_PERMISSION_DENIED	3
#define SSH2_FX_FAILURE			4
#define SSH2_FX_BAD_MESSAGE		5
#define SSH2_FX_NO_CONNECTION		6
#define SSH2_FX_CONNECTION_LOST		7
#define SSH2_FX_OP_UNSUPPORTED		8
#define SSH2_FX_MAX			8

/* statvfs@openssh.com flag bits. */
#define SSH2_FXE_STATVFS_ST_RDONLY	0x00000001
#define SSH2_FXE_STATVFS_ST_NOSUID	0x00000002

/* Limits (as OpenSSH's): a request larger than this ends the session. */
#define SFTP_MAX_MSG_LENGTH		(256 * 1024)
#define SFTP_MAX_READ_LENGTH		(SFTP_MAX_MSG_LENGTH - 1024)
/* Cap on the extended pairs of one ATTRS record. */
#define SFTP_MAX_ATTR_EXTENDED		256

struct sftp_attrs {
	uint32_t flags;
	uint64_t size;
	uint32_t uid, gid;
	uint32_t perm;
	uint32_t atime, mtime;
};

void sftp_attrs_clear(struct sftp_attrs *a);
void sftp_attrs_from_stat(struct sftp_attrs *a, const struct stat *st);
/* Fill a struct stat's mode, size, ids and times from what a has. */
void sftp_attrs_to_stat(const struct sftp_attrs *a, struct stat *st);
int sftp_attrs_encode(struct sbuf *b, const struct sftp_attrs *a);
/* Parse an ATTRS record; 0 or ERR_MESSAGE_INCOMPLETE/ERR_INVALID_FORMAT. */
int sftp_attrs_decode(struct sbuf *b, struct sftp_attrs *a);

/*
 * One `ls -l` line as OpenSSH's sftp prints and its server sends in
 * READDIR: mode, links, owner and group (names at least 8 wide), size,
 * date (time of day within six months, else the year), name. NULL user or
 * group print the number. Caller frees.
 */
char *sftp_ls_long(const char *name, const struct stat *st, const char *user,
    const char *group, int si_units);

/* "Success", "No such file"... as OpenSSH words them; never NULL. */
const char *sftp_status_message(uint32_t status);
/* The status OpenSSH sends for an errno value. */
uint32_t sftp_errno_to_status(int errnum);

#endif
