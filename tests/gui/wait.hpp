// Spins the event loop until a condition holds. The limit only keeps a broken build from hanging the suite; the
// tests never measure time.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>

template <class Cond> bool wait_until(Cond cond, int limit_ms = 120000) {
  QElapsedTimer t;
  t.start();
  while (!cond()) {
    if (t.elapsed() > limit_ms)
      return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

// Lets queued work (deletions, late signals) happen for a while.
inline void settle_events(int ms = 300) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}
