// A persistent pool of worker threads for batched stepping.
// `parallel_for(n, chunk, fn)` runs fn(begin, end) over [0, n) in chunks claimed from an
// atomic counter; the calling thread works too, so a pool of size 1 has no workers.
// Between calls workers spin briefly (a step of a batch is often only tens of
// microseconds, shorter than a condition-variable wake-up) and then sleep, so an idle
// pool costs nothing and no thread is ever created per step.
#ifndef TRACKFIELD_COMMON_THREAD_POOL_H
#define TRACKFIELD_COMMON_THREAD_POOL_H

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace trackfield {

class ThreadPool {
 public:
  explicit ThreadPool(int num_threads) : num_threads_(std::max(1, num_threads)) {
    for (int t = 1; t < num_threads_; ++t) workers_.emplace_back([this] { worker_loop(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      generation_.fetch_add(1);
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return num_threads_; }

  void parallel_for(int n, int chunk, const std::function<void(int, int)>& fn) {
    if (n <= 0) return;
    chunk = std::max(1, chunk);
    if (num_threads_ == 1 || n <= chunk) {
      fn(0, n);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = &fn;
      task_n_ = n;
      task_chunk_ = chunk;
      next_.store(0);
      error_ = nullptr;
      active_.store(static_cast<int>(workers_.size()));
      generation_.fetch_add(1);
    }
    wake_.notify_all();
    run_chunks();
    // Wait for the workers: spin first, then sleep.
    for (int spin = 0; spin < kSpins && active_.load() != 0; ++spin) std::this_thread::yield();
    if (active_.load() != 0) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [this] { return active_.load() == 0; });
    }
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  static constexpr int kSpins = 2000;

  void run_chunks() {
    for (;;) {
      int begin = next_.fetch_add(task_chunk_);
      if (begin >= task_n_) return;
      int end = std::min(task_n_, begin + task_chunk_);
      try {
        (*task_)(begin, end);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }

  void worker_loop() {
    uint64_t seen = 0;
    for (;;) {
      for (int spin = 0; spin < kSpins && generation_.load() == seen; ++spin) std::this_thread::yield();
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load() != seen; });
        seen = generation_.load();
        if (stopping_) return;
      }
      run_chunks();
      if (active_.fetch_sub(1) == 1) {
        std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
      }
    }
  }

  int num_threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<uint64_t> generation_{0};
  bool stopping_ = false;
  const std::function<void(int, int)>* task_ = nullptr;
  int task_n_ = 0, task_chunk_ = 1;
  std::atomic<int> next_{0};
  std::atomic<int> active_{0};
  std::exception_ptr error_;
};

}  // namespace trackfield

#endif
