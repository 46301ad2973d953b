// Where a local registry may live: a directory on a network or cluster filesystem, or in a
// folder a hypervisor shares, is refused before any slot is touched (its locks and sockets
// guard one kernel only). No such filesystem can be mounted here, so the claims go through
// the filesystem check's seams (registry::fs_type_of, registry::mount_type_of).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "lease/local_registry.hpp"  // internal: the filesystem check
#include "local_util.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using namespace local_test;
using snowfleet_test::temp_dir;
namespace fs = std::filesystem;

TEST_CASE("local: a registry on a network filesystem is refused, naming the directory and why",
          "[fleet][local]") {
  // No network filesystem can be mounted here: the classification is checked against the
  // kernel's magic numbers, and the claim with the filesystem check pointed at each.
  CHECK(std::string(detail::registry::network_fs_name(0x6969)) == "NFS");
  CHECK(std::string(detail::registry::network_fs_name(0xff534d42)) == "SMB/CIFS");
  CHECK(std::string(detail::registry::network_fs_name(0xfe534d42)) == "SMB2");
  CHECK(std::string(detail::registry::network_fs_name(0x00c36400)) == "Ceph");
  for (int64_t local :
       std::vector<int64_t>{0xef53 /* ext2/3/4 */, 0x58465342 /* XFS */, 0x9123683e /* Btrfs */,
                            0x01021994 /* tmpfs */, 0x794c7630 /* overlayfs */, -1 /* unknown */})
    CHECK(detail::registry::network_fs_name(local) == nullptr);
  // This machine's temporary directory is local: claimed.
  const std::string dir = temp_dir();
  CHECK(claim_verdict("local:" + dir).rfind("claimed ", 0) == 0);
  const auto saved = detail::registry::fs_type_of;
  detail::registry::fs_type_of = [](int) -> int64_t { return 0x6969; };
  const std::string nfs = temp_dir();
  const std::string verdict = claim_verdict("local:" + nfs);
  detail::registry::fs_type_of = saved;
  INFO("verdict: " << verdict);
  CHECK(verdict.rfind("refused NODE_ID_UNAVAILABLE", 0) == 0);
  CHECK(verdict.find("registry directory " + nfs + " is on NFS, a network or shared filesystem") !=
        std::string::npos);
  CHECK(verdict.find("etcd://") != std::string::npos);
  CHECK(fs::is_empty(nfs));  // refused before any slot file is created
}

TEST_CASE("local: a registry in a VM's shared folder is refused like a network filesystem",
          "[fleet][local]") {
  // A folder the hypervisor shares (VirtualBox vboxsf, Parallels prl_fs, VMware vmhgfs) is
  // seen by several kernels, the host's and each guest's: the slot locks and the abstract
  // sockets live in one of them, so two guests could hold one slot. Refused through the
  // filesystem check's seam, as no such folder can be mounted here.
  const auto saved = detail::registry::fs_type_of;
  for (const auto& [magic, name] : std::vector<std::pair<int64_t, std::string>>{
           {0x786f4256, "vboxsf"}, {0x7c7c6673, "prl_fs"}, {0xbacbacbc, "vmhgfs"}}) {
    static int64_t type;
    type = magic;
    detail::registry::fs_type_of = [](int) -> int64_t { return type; };
    const std::string dir = temp_dir();
    const std::string verdict = claim_verdict("local:" + dir);
    detail::registry::fs_type_of = saved;
    INFO("verdict: " << verdict);
    CHECK(verdict.rfind("refused NODE_ID_UNAVAILABLE", 0) == 0);
    CHECK(verdict.find("registry directory " + dir + " is on " + name) != std::string::npos);
    CHECK(fs::is_empty(dir));
  }
}

TEST_CASE("local: a FUSE registry is refused when its mount is virtiofs or a network one",
          "[fleet][local]") {
  // virtiofs (a VM host's shared folder) and every other FUSE filesystem report FUSE's
  // f_type: the mount's type in /proc/self/mountinfo tells virtiofs and sshfs from a local
  // FUSE filesystem, which stays allowed. Through both seams of the filesystem check.
  namespace reg = detail::registry;
  CHECK(reg::network_fs_name(reg::kFuseMagic) == nullptr);
  CHECK(reg::network_fs_name(reg::kFuseMagic, "fuse.lxcfs") == nullptr);
  CHECK(std::string(reg::network_fs_name(reg::kFuseMagic, "virtiofs")).rfind("virtiofs", 0) == 0);
  CHECK(reg::network_fs_name(0xef53, "virtiofs") == nullptr);  // only FUSE's type is asked
  {
    // The real lookup finds this machine's temporary directory's mount.
    const std::string dir = temp_dir();
    const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    CHECK_FALSE(reg::mount_type_of(fd).empty());
    close(fd);
  }
  const auto saved_type = reg::fs_type_of;
  const auto saved_mount = reg::mount_type_of;
  reg::fs_type_of = [](int) -> int64_t { return reg::kFuseMagic; };
  for (const char* mount : {"virtiofs", "fuse.sshfs", "fuse.lxcfs"}) {
    static std::string type;
    type = mount;
    reg::mount_type_of = [](int) { return type; };
    const std::string dir = temp_dir();
    const std::string verdict = claim_verdict("local:" + dir);
    INFO(mount << ": " << verdict);
    if (type == "fuse.lxcfs") {
      CHECK(verdict.rfind("claimed ", 0) == 0);
    } else {
      CHECK(verdict.rfind("refused NODE_ID_UNAVAILABLE", 0) == 0);
      CHECK(verdict.find("is on " + std::string(type == "virtiofs" ? "virtiofs" : "sshfs")) !=
            std::string::npos);
      CHECK(fs::is_empty(dir));
    }
  }
  reg::fs_type_of = saved_type;
  reg::mount_type_of = saved_mount;
}
