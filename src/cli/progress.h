// Progress display of the CLI's long-running commands (sweep, mx-sweep, atomic-sweep, ...).
//
// On a terminal one line is rewritten in place ("\r") every 0.5 s; otherwise (a pipe, a file, a
// CI log) a plain line is printed every 10 s, or every ACCELMATH_PROGRESS_INTERVAL seconds when
// that environment variable holds a positive number. finish() prints one final line with the
// count, the time and the rate. Example lines:
//   sweep exp   42.7%  7168000 / 16777216 inputs  8.03 M inputs/s  0.9 s elapsed, ~1.2 s left
//   sweep exp: 16777216 inputs in 2.1 s, 8.03 M inputs/s
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace accelmath::cli {

class Progress {
 public:
  // Shows `label` and the share of `total` units (`unit`: "inputs", "pairs", ...) done on `out`:
  // on a terminal one line rewritten in place every 0.5 s; otherwise a plain line every 10 s.
  // Each line: percent, done/total, rate (units/s), elapsed and time left. Does nothing if !enabled.
  Progress(std::string label, std::uint64_t total, std::string unit, bool enabled = true, std::FILE* out = stderr);
  void add(std::uint64_t n) noexcept;  // thread-safe; may be called from worker threads
  void finish();                       // stops the ticker and prints the final line (total, time, rate); idempotent
  ~Progress();                         // finish()

  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  void Tick();                   // the ticker thread
  std::string Line(bool final);  // the text of one line (no "\r" or "\n")

  std::string label_, unit_;
  std::uint64_t total_;
  bool enabled_;
  std::FILE* out_;
  bool tty_ = false;
  std::chrono::steady_clock::duration period_{};
  std::chrono::steady_clock::time_point t0_;
  std::atomic<std::uint64_t> done_{0};
  std::mutex mu_;  // guards stop_, finished_ and the printing
  std::condition_variable cv_;
  bool stop_ = false, finished_ = false;
  std::size_t last_width_ = 0;  // terminal: the length of the line on screen, to blank its tail
  std::thread ticker_;
};

}  // namespace accelmath::cli
