// The planner's changes to an open scenario, kept as the `--set POINTER=VALUE` overrides `aisim run` takes, so the
// child process runs exactly what the window shows and a change can be reproduced on the command line. Applied and
// checked with the CLI's own functions (models::apply_override, models::load_scenario), never a copy of them.
#pragma once

#include "models/common/diagnostics.hpp"
#include "models/common/json_reader.hpp"

#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace aisim::gui {

class ScenarioEdits {
public:
  // Reads the scenario file as written (without defaults); false with the reason in `error`.
  bool load(const QString& path, QString* error);
  const QString& path() const { return path_; }

  // Sets the value at `pointer` as typed (read as JSON where it parses, else as a string, as `--set` does).
  // `resolved` is the last usable resolved scenario: a value that only a default filled in, under an object the
  // file does not have (a system's `protection` left out), is set by writing that object with its resolved content.
  void set(const QString& pointer, const QString& text, const models::Json& resolved);
  // Forgets the change at `pointer` (back to the file's value or default).
  void revert(const QString& pointer);
  // Takes back the last set() or revert(); false when there is nothing to take back.
  bool undo();
  void clear() {
    edits_.clear();
    history_.clear();
    rebuild();
  }
  bool empty() const { return edits_.empty(); }
  // The pointers changed, as typed.
  std::vector<QString> edited() const;
  // The text typed at `pointer`, if it was changed.
  std::optional<QString> edited_text(const QString& pointer) const;

  // The overrides for `aisim run --set`, in the order they apply.
  QStringList sets() const { return sets_; }
  // The file's document with the changes applied: what Save writes.
  const models::Json& document() const { return document_; }
  // The CLI's checks of the file with the overrides: the resolved scenario, or every problem with its pointer.
  struct Checked {
    std::optional<models::Json> resolved;
    models::Diagnostics diagnostics;
  };
  Checked check() const;
  // Writes document() to `path` atomically (a temporary file and a rename); false with the reason in `error`.
  bool save(const QString& path, QString* error) const;

private:
  void rebuild();

  QString path_;
  models::Json file_;
  models::Json resolved_ = models::Json::object(); // the last usable resolved scenario
  std::vector<std::pair<QString, QString>> edits_; // pointer, text; one per pointer, in the order first changed
  // For undo: each set() or revert() with the edits as they were before it.
  std::vector<std::vector<std::pair<QString, QString>>> history_;
  QStringList sets_;
  models::Json document_;
};

} // namespace aisim::gui
