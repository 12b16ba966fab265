"""`meson install` puts a self-contained seen.so in <libdir>/redis/modules: it needs only the
C and C++ run-times and the copy of Highway's library installed beside it, and a server loads
it with the host's libhwy hidden."""
import glob
import os
import re
import subprocess
from pathlib import Path

import pytest

from seen.redis import pack_ids, unpack_bitmap
from servers import Server

# The Highway library, by its soname.
HWY = Path(os.environ.get("SEEN_HWY_SONAME", "libhwy.so.1"))
# The C and C++ run-times, the C library's dynamic loader among them.
RUNTIMES = re.compile(r"(libc|libm|libgcc_s|libstdc\+\+)\.so\.\d+|ld-linux[-\w.]*\.so\.\d+")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """seen.so installed from this build under a scratch root (meson install --destdir)."""
    root = tmp_path_factory.mktemp("install")
    subprocess.run(["meson", "install", "-C", os.environ["SEEN_BUILD_ROOT"], "--no-rebuild",
                    "--tags", "redis", "--destdir", str(root)],
                   check=True, stdout=subprocess.DEVNULL)
    module = root / os.environ["SEEN_REDIS_INSTALL_DIR"].lstrip("/") / "seen.so"
    assert module.is_file(), sorted(str(p) for p in root.rglob("*"))
    return module


def needed(library: Path):
    dynamic = subprocess.run(["readelf", "-d", str(library)], check=True, capture_output=True,
                             text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", dynamic)


def test_installed_module_needs_only_the_runtimes_and_its_own_libhwy(installed):
    libraries = needed(installed)
    others = [name for name in libraries if not RUNTIMES.fullmatch(name)]
    assert others == [HWY.name], libraries
    assert (installed.parent / HWY.name).is_file(), "libhwy is installed beside seen.so"
    dynamic = subprocess.run(["readelf", "-d", str(installed)], check=True, capture_output=True,
                             text=True).stdout
    assert re.search(r"\((RUNPATH|RPATH)\)\s+Library (runpath|rpath): \[\$ORIGIN\]", dynamic), dynamic


def host_libhwy():
    """The host's libhwy files, as their real paths."""
    patterns = ["/usr/lib/libhwy*.so*", "/usr/lib/*/libhwy*.so*", "/usr/local/lib/libhwy*.so*",
                "/lib/*/libhwy*.so*"]
    return sorted({os.path.realpath(p) for pattern in patterns for p in glob.glob(pattern)})


def hide_host_libhwy():
    """A command that runs the next one in a mount namespace where every libhwy file of the
    host reads as empty, or None where this user cannot make one."""
    files = host_libhwy()
    mounts = " && ".join(f"mount --bind /dev/null '{f}'" for f in files) or "true"
    probe = subprocess.run(["unshare", "--mount", "sh", "-c", mounts], capture_output=True)
    if probe.returncode != 0:
        return None
    return ["unshare", "--mount", "sh", "-c", mounts + ' && exec "$0" "$@"']


def test_installed_module_loads_with_the_hosts_libhwy_hidden(installed, tmp_path):
    wrapper = hide_host_libhwy()
    if wrapper is None:
        pytest.skip("cannot make a mount namespace here (unshare --mount needs root)")
    server = Server(tmp_path, module=str(installed), wrapper=wrapper)
    try:
        r = server.client()
        r.execute_command("SEEN.MARKB", "k", pack_ids([1, 2, 3]))
        bitmap = r.execute_command("SEEN.FILTERB", "k", pack_ids([1, 2, 3, 4]))
        assert unpack_bitmap(bitmap, 4) == [False, False, False, True]
        # What the server mapped, by inode (a path may read differently in /proc): the module
        # installed, and no libhwy of the host's.
        mapped = [line.split() for line in Path(f"/proc/{server.proc.pid}/maps").read_text().splitlines()]
        files = {(int(f[4]), " ".join(f[5:])) for f in mapped if len(f) >= 6}
        if os.stat(installed).st_ino not in {inode for inode, _ in files}:
            pytest.fail(f"{installed} is not mapped: {sorted(path for _, path in files)}")
        host = {os.stat(path).st_ino for path in host_libhwy()}
        if any(inode in host for inode, path in files if "libhwy" in path):
            pytest.fail(f"the host's libhwy is mapped: {sorted(entry for entry in files if 'libhwy' in entry[1])}")
    finally:
        server.stop()
