// Snapshots: a world's state as bytes, and back.
// Each domain keeps its whole per-world state in trivially copyable structs, so a
// snapshot is a small header (magic, format version, payload size, a fingerprint of
// the world's configuration, a checksum of the payload) followed by the raw structs.
// Restoring checks the header, so bytes from another domain, version or scenario, or
// damaged bytes, are refused with a clear error. The checksum guards against damage
// only (anyone can recompute it for an edited snapshot), so each domain's check_world
// then vets every field of the payload (common/restore_check.h).
#ifndef TRACKFIELD_COMMON_SNAPSHOT_H
#define TRACKFIELD_COMMON_SNAPSHOT_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace trackfield {

constexpr uint64_t kFnvOffsetBasis = 14695981039346656037ULL;

// FNV-1a over raw bytes: fingerprints a configuration struct for snapshot checks.
inline uint64_t fingerprint_bytes(const void* data, size_t n, uint64_t h = kFnvOffsetBasis) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

struct SnapshotHeader {
  uint32_t magic;
  uint32_t version;
  uint64_t payload_bytes;
  uint64_t config_fingerprint;
  uint64_t payload_checksum;  // FNV-1a of the payload bytes
};

class SnapshotWriter {
 public:
  SnapshotWriter(uint32_t magic, uint32_t version, uint64_t fingerprint) {
    SnapshotHeader h{magic, version, 0, fingerprint, 0};
    bytes_.append(reinterpret_cast<const char*>(&h), sizeof(h));
  }
  template <typename T>
  void write(const T& value) {
    static_assert(std::is_trivially_copyable<T>::value, "snapshots hold plain data only");
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void write_bytes(const void* data, size_t n) { bytes_.append(static_cast<const char*>(data), n); }
  std::string finish() {
    uint64_t payload = bytes_.size() - sizeof(SnapshotHeader);
    std::memcpy(&bytes_[offsetof(SnapshotHeader, payload_bytes)], &payload, sizeof(payload));
    uint64_t checksum = fingerprint_bytes(bytes_.data() + sizeof(SnapshotHeader), payload);
    std::memcpy(&bytes_[offsetof(SnapshotHeader, payload_checksum)], &checksum, sizeof(checksum));
    return std::move(bytes_);
  }

 private:
  std::string bytes_;
};

class SnapshotReader {
 public:
  SnapshotReader(const std::string& bytes, uint32_t magic, uint32_t version, uint64_t fingerprint,
                 const char* what)
      : bytes_(bytes) {
    SnapshotHeader h;
    if (bytes.size() < sizeof(h))
      throw std::invalid_argument(std::string("set_state: state is too short to be a ") + what +
                                  " snapshot");
    std::memcpy(&h, bytes.data(), sizeof(h));
    if (h.magic != magic)
      throw std::invalid_argument(std::string("set_state: state is not a ") + what + " snapshot");
    if (h.version != version)
      throw std::invalid_argument("set_state: snapshot format version " + std::to_string(h.version) +
                                  " is not this engine's " + std::to_string(version));
    if (h.payload_bytes != bytes.size() - sizeof(h))
      throw std::invalid_argument("set_state: snapshot is truncated or has trailing bytes");
    if (h.config_fingerprint != fingerprint)
      throw std::invalid_argument(
          "set_state: snapshot was taken from an env with another scenario or configuration");
    if (h.payload_checksum != fingerprint_bytes(bytes.data() + sizeof(h), bytes.size() - sizeof(h)))
      throw std::invalid_argument(std::string("set_state: the ") + what + " snapshot is corrupted (checksum mismatch)");
    pos_ = sizeof(h);
  }
  template <typename T>
  void read(T& value) {
    static_assert(std::is_trivially_copyable<T>::value, "snapshots hold plain data only");
    read_bytes(&value, sizeof(T));
  }
  void read_bytes(void* out, size_t n) {
    if (pos_ + n > bytes_.size()) throw std::invalid_argument("set_state: snapshot is truncated");
    std::memcpy(out, bytes_.data() + pos_, n);
    pos_ += n;
  }
  bool done() const { return pos_ == bytes_.size(); }

 private:
  const std::string& bytes_;
  size_t pos_ = 0;
};

}  // namespace trackfield

#endif
