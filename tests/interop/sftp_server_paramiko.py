"""paramiko's SFTPClient against our sftp-server behind our sshd.

Arguments: host port user key directory. Puts a file, reads it back,
lists the directory, stats, renames, removes, makes and removes a
directory, and checks each result; exits 1 on the first mismatch.
"""
import os
import sys

import paramiko


def main():
    host, port, user, key, d = sys.argv[1:6]
    c = paramiko.SSHClient()
    c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    c.connect(host, int(port), username=user, key_filename=key,
              look_for_keys=False, allow_agent=False)
    s = c.open_sftp()
    data = os.urandom(300000)
    local = os.path.join(d, "..", "pm_local")
    with open(local, "wb") as f:
        f.write(data)
    s.put(local, d + "/pm")
    got = local + "_got"
    s.get(d + "/pm", got)
    with open(got, "rb") as f:
        assert f.read() == data, "get returned other bytes"
    assert "pm" in s.listdir(d), "listdir misses the file"
    st = s.stat(d + "/pm")
    assert st.st_size == len(data), "stat size %d" % st.st_size
    s.rename(d + "/pm", d + "/pm2")
    names = s.listdir(d)
    assert "pm2" in names and "pm" not in names, "rename: %r" % names
    with s.open(d + "/pm2", "r") as f:
        f.seek(1000)
        assert f.read(10) == data[1000:1010], "seek+read"
    s.mkdir(d + "/pmdir")
    assert s.stat(d + "/pmdir").st_mode & 0o40000, "mkdir"
    s.rmdir(d + "/pmdir")
    s.remove(d + "/pm2")
    assert "pm2" not in s.listdir(d), "remove"
    try:
        s.stat(d + "/pm2")
        raise AssertionError("stat of a removed file")
    except FileNotFoundError:
        pass
    assert s.normalize(".") != "", "normalize"
    s.close()
    c.close()
    print("paramiko sftp ok")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # report and fail
        print("paramiko sftp: %r" % (e,), file=sys.stderr)
        sys.exit(1)
