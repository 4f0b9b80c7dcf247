"""asyncssh's SFTP client against our sftp-server behind our sshd.

Arguments: host port user key directory. Makes symbolic links with
SFTPClient.symlink(target, link) -- one to a file that exists, one
dangling, one with a relative target in a subdirectory -- and reads
them back with readlink(); prints the server's version string as
asyncssh saw it and, for each link, "LINK -> TARGET" from lstat and
readlink, so the caller can also check them on disk. asyncssh decides
the order of SSH_FXP_SYMLINK's arguments from that version string, so
this shows whether it and our server agree. Exits 1 on the first
mismatch or error.
"""
import asyncio
import stat
import sys

import asyncssh


async def run(host, port, user, key, d):
    async with asyncssh.connect(host, int(port), username=user,
                                client_keys=[key], known_hosts=None,
                                agent_path=None) as conn:
        print("server version: %s" % conn.get_extra_info("server_version"))
        async with conn.start_sftp_client() as s:
            async with s.open(d + "/target", "w") as f:
                await f.write("hello\n")
            await s.mkdir(d + "/sub")
            cases = [
                (d + "/target", d + "/link_abs"),
                ("no-such-file", d + "/link_dangling"),
                ("../target", d + "/sub/link_rel"),
            ]
            for target, link in cases:
                await s.symlink(target, link)
                attrs = await s.lstat(link)
                if not stat.S_ISLNK(attrs.permissions):
                    raise SystemExit("%s is not a symlink (mode %o)" %
                                     (link, attrs.permissions))
                got = await s.readlink(link)
                if got != target:
                    raise SystemExit("readlink %s gave %r, not %r" %
                                     (link, got, target))
                print("%s -> %s" % (link, got))
            # Through the relative link the file reads back.
            async with s.open(d + "/sub/link_rel", "r") as f:
                if await f.read() != "hello\n":
                    raise SystemExit("reading through sub/link_rel failed")
            # And no link was made under a name it was not asked for.
            names = sorted(await s.listdir(d))
            want = sorted([".", "..", "target", "sub", "link_abs",
                           "link_dangling"])
            if names != want:
                raise SystemExit("directory holds %r, not %r" % (names, want))


def main():
    try:
        asyncio.run(run(*sys.argv[1:6]))
    except (OSError, asyncssh.Error) as e:
        print("error: %s: %s" % (type(e).__name__, e))
        sys.exit(1)


if __name__ == "__main__":
    main()
