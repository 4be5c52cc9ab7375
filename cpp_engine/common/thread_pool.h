// A persistent pool of worker threads for batched stepping.
// `parallel_for(n, fn)` runs fn(i) for i in [0, n) in chunks claimed from an atomic
// counter; the calling thread works too, so a pool of size 1 has no workers at all.
// Workers sleep on a condition variable between calls: no threads are created per step.
#ifndef TRACKFIELD_COMMON_THREAD_POOL_H
#define TRACKFIELD_COMMON_THREAD_POOL_H

#include <algorithm>
#include <atomic>
#include <condition_variable>
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
      ++generation_;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return num_threads_; }

  // Runs fn(begin, end) over [0, n) split into chunks of `chunk` items.
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
      active_ = static_cast<int>(workers_.size());
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    run_chunks();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return active_ == 0; });
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
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
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (stopping_) return;
      }
      run_chunks();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --active_;
      }
      done_.notify_one();
    }
  }

  int num_threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;
  bool stopping_ = false;
  const std::function<void(int, int)>* task_ = nullptr;
  int task_n_ = 0, task_chunk_ = 1;
  std::atomic<int> next_{0};
  int active_ = 0;
  std::exception_ptr error_;
};

}  // namespace trackfield

#endif
