// The parameter panel: every value of the resolved scenario (defaults filled in) as an editable tree, grouped as a
// planner thinks of the cluster (node groups, network, drives, each storage system, each workload, policies, costs,
// simulation), with units shown. Edits are reported, not applied: the window checks them with the CLI's own checks
// and marks each problem next to the value it names.
#pragma once

#include "models/common/diagnostics.hpp"
#include "models/common/json_reader.hpp"

#include <QSet>
#include <QString>
#include <QWidget>

#include <functional>

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace aisim::gui {

class ParameterPanel : public QWidget {
public:
  explicit ParameterPanel(QWidget* parent = nullptr);

  // Shows the values of `resolved`; `edited` are the pointers the planner changed (shown bold). Keeps what was
  // expanded and the scroll position when the same scenario is shown again.
  void show_document(const models::Json& resolved, const QSet<QString>& edited);
  // Marks each error (and warning) next to the value its pointer names, or the nearest group holding it; clears
  // earlier marks. Returns the messages that name no value shown (the whole file, a key the panel does not show).
  QStringList show_diagnostics(const models::Diagnostics& diagnostics);
  // Shows `text` in the value cell at `pointer` without reporting an edit (a value that failed its check stays as
  // typed).
  void show_text(const QString& pointer, const QString& text);
  void clear();

  // A value was edited: its JSON pointer and the text typed. Called from the event loop, after the edit closed.
  std::function<void(const QString& pointer, const QString& text)> on_edit;
  // "Reset to the file's value" on an edited value.
  std::function<void(const QString& pointer)> on_revert;

  // As if the planner typed `text` into the value at `pointer` (the tests drive the panel this way); false when no
  // such value is shown.
  bool edit(const QString& pointer, const QString& text);
  // Adds `key` with the value `text` under the group at `group` (an object), reported as an edit of
  // group/key: how a planner gives a system failures, or a node group an MTBF, that the file does not have.
  bool add(const QString& group, const QString& key, const QString& text);
  // What the panel shows at `pointer`: its value, its unit, its check message (empty when fine).
  QString value_text(const QString& pointer) const;
  QString unit_text(const QString& pointer) const;
  QString check_text(const QString& pointer) const;
  // The pointer of the value under the cursor (empty when none): what Run > Sweep a parameter offers.
  QString current_pointer() const;

private:
  QTreeWidgetItem* find(const QString& pointer) const;
  void apply_filter(const QString& text);

  QLineEdit* filter_;
  QTreeWidget* tree_;
  bool updating_ = false;
};

// The unit of a plain number at `key` ("nodes", "drives per enclosure", "fraction per year"); quantities written with
// their unit ("400Gbps", "30min") carry it in the value and get "".
QString unit_hint(const QString& key, const models::Json& value);

} // namespace aisim::gui
