// Worker threads of the CLI's long runs (sweep, mx-sweep, atomic-sweep).
#pragma once

#include <cstdio>
#include <system_error>
#include <thread>
#include <vector>

namespace accelmath::cli {

// Runs fn(k) for k = 0 .. n-1 on n threads and returns when all are done. A thread the system
// refuses (a process limit) does not abort the run: fn(k) for it and every later k runs on the
// calling thread instead, after the others started, so fn must give the same result whichever
// thread runs it (a static share per k, or chunks handed out one by one). One note on stderr per
// process says so.
template <class Fn>
void RunOnThreads(unsigned n, Fn fn) {
  std::vector<std::thread> pool;
  unsigned started = 0;
  try {
    for (; started < n; ++started) pool.emplace_back(fn, started);
  } catch (const std::system_error& e) {
    static bool said = false;  // once per process, not once per function of `sweep --all`
    if (!said) {
      std::fprintf(stderr, "accelmath: note: --threads %u: the system refused thread %u (%s); continuing on %u, same result\n",
                   n, started + 1, e.what(), started + 1);
    }
    said = true;
  }
  for (unsigned k = started; k < n; ++k) fn(k);
  for (auto& th : pool) th.join();
}

}  // namespace accelmath::cli
