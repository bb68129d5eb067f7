#include "cli/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace accelmath::cli {
namespace {

constexpr double kTerminalPeriod = 0.5;  // seconds
constexpr double kPlainPeriod = 10.0;    // seconds; ACCELMATH_PROGRESS_INTERVAL overrides

// The period of the plain (non-terminal) lines.
double PlainPeriod() {
  if (const char* s = std::getenv("ACCELMATH_PROGRESS_INTERVAL")) {
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end != s && std::isfinite(v) && v > 0) return v;
  }
  return kPlainPeriod;
}

// 8030000 -> "8.03 M", 950 -> "950".
std::string Rate(double r) {
  char buf[32];
  if (!std::isfinite(r) || r < 0) r = 0;
  const char* suffix[] = {"", " k", " M", " G", " T"};
  int i = 0;
  while (r >= 999.5 && i < 4) r /= 1000, ++i;
  std::snprintf(buf, sizeof buf, i == 0 ? "%.0f%s" : r < 9.995 ? "%.2f%s" : r < 99.95 ? "%.1f%s" : "%.0f%s", r, suffix[i]);
  return buf;
}

// 0.93 -> "0.9 s", 75 -> "1m15s", 4000 -> "1h06m".
std::string Duration(double s) {
  char buf[64];
  if (!std::isfinite(s) || s < 0) return "?";
  if (s < 10) {
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  } else if (s < 60) {
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  } else if (s < 3600) {
    const long m = static_cast<long>(s) / 60;
    std::snprintf(buf, sizeof buf, "%ldm%02lds", m, static_cast<long>(s) - 60 * m);
  } else {
    const long h = static_cast<long>(s) / 3600;
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", h, (static_cast<long>(s) - 3600 * h) / 60);
  }
  return buf;
}

// The columns of the terminal on `out`; 0 if unknown.
std::size_t Columns(std::FILE* out) {
  winsize ws{};
  return ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

// Terminal: "\r" + the line, cut to the width unless `final` (a wrapped line could not be
// rewritten in place), + blanks over the tail of a longer previous line.
void Rewrite(std::FILE* out, std::string line, std::size_t& last_width, bool final) {
  const std::size_t cols = Columns(out);
  if (!final && cols > 1 && line.size() > cols - 1) line.resize(cols - 1);
  const std::size_t pad = last_width > line.size() ? last_width - line.size() : 0;
  std::fprintf(out, "\r%s%*s%s", line.c_str(), static_cast<int>(pad), "", final ? "\n" : "");
  last_width = line.size();
}

}  // namespace

Progress::Progress(std::string label, std::uint64_t total, std::string unit, bool enabled, std::FILE* out)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), enabled_(enabled && out), out_(out),
      t0_(std::chrono::steady_clock::now()) {
  if (!enabled_) return;
  const int fd = fileno(out_);
  tty_ = fd >= 0 && isatty(fd);
  period_ = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(tty_ ? kTerminalPeriod : PlainPeriod()));
  ticker_ = std::thread([this] { Tick(); });
}

Progress::~Progress() {
  try {
    finish();
  } catch (...) {  // a destructor must not throw (a failed join or lock: nothing left to show)
  }
}

void Progress::add(std::uint64_t n) noexcept { done_.fetch_add(n, std::memory_order_relaxed); }

std::string Progress::Line(bool final) {
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const double rate = s > 0 ? double(done) / s : 0.0;
  const std::string prefix = label_.empty() ? "" : label_ + (final ? ": " : "  ");
  char buf[256];
  if (final) {
    if (done == total_) {
      std::snprintf(buf, sizeof buf, "%llu %s in %s, %s %s/s", static_cast<unsigned long long>(done), unit_.c_str(),
                    Duration(s).c_str(), Rate(rate).c_str(), unit_.c_str());
    } else {  // stopped early (an error, or a count that did not reach the total)
      std::snprintf(buf, sizeof buf, "stopped at %.1f%%, %llu / %llu %s in %s, %s %s/s",
                    total_ ? 100.0 * double(done) / double(total_) : 100.0, static_cast<unsigned long long>(done),
                    static_cast<unsigned long long>(total_), unit_.c_str(), Duration(s).c_str(), Rate(rate).c_str(),
                    unit_.c_str());
    }
    return prefix + buf;
  }
  const double f = total_ ? std::min(1.0, double(done) / double(total_)) : 1.0;
  std::string left = "?";
  if (done >= total_) {
    left = "0 s";
  } else if (done > 0 && rate > 0) {
    left = "~";
    left += Duration(double(total_ - done) / rate);
  }
  std::snprintf(buf, sizeof buf, "%5.1f%%  %llu / %llu %s  %s %s/s  %s elapsed, %s left", 100 * f,
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), unit_.c_str(),
                Rate(rate).c_str(), unit_.c_str(), Duration(s).c_str(), left.c_str());
  return prefix + buf;
}

void Progress::Tick() {
  std::unique_lock<std::mutex> lock(mu_);
  auto next = t0_ + period_;
  while (!cv_.wait_until(lock, next, [this] { return stop_; })) {
    const std::string line = Line(false);
    if (tty_) {
      Rewrite(out_, line, last_width_, false);
    } else {
      std::fprintf(out_, "%s\n", line.c_str());
    }
    std::fflush(out_);
    next += period_;
    const auto now = std::chrono::steady_clock::now();
    if (next < now) next = now + period_;  // after a stall, no burst of catch-up lines
  }
}

void Progress::finish() {
  if (!enabled_) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished_) return;
    finished_ = stop_ = true;
  }
  cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  const std::string line = Line(true);
  if (tty_) {
    Rewrite(out_, line, last_width_, true);
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

}  // namespace accelmath::cli
