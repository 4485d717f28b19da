#include "gui/parameter_panel.hpp"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace aisim::gui {

namespace {

enum Column { kName = 0, kValue = 1, kUnit = 2, kCheck = 3 };
constexpr int kPointerRole = Qt::UserRole;
constexpr int kEditableRole = Qt::UserRole + 1;
constexpr int kObjectRole = Qt::UserRole + 2; // a group that is a JSON object: keys can be added to it

// Keys the panel leaves out: identity and documentation, not parameters (a name is what other keys refer to).
bool hidden(const QString& pointer, const QString& key) {
  if (pointer.count('/') == 1)
    return key == "schema_version" || key == "name" || key == "description";
  if (pointer.startsWith("/drives/"))
    return key == "format" || key == "name" || key == "source" || key == "file";
  return false;
}

QString value_string(const models::Json& v) {
  if (v.is_string())
    return QString::fromStdString(v.get<std::string>());
  return QString::fromStdString(v.dump());
}

// A group's label: an element of a list that has a name shows it ("llama-70b"), else its index.
QString label_of(const QString& key, const models::Json& v, bool in_array) {
  if (in_array && v.is_object() && v.contains("name") && v["name"].is_string())
    return QString::fromStdString(v["name"].get<std::string>());
  if (in_array)
    return "[" + key + "]";
  return key;
}

void add_children(QTreeWidgetItem* parent, const QString& pointer, const models::Json& v, const QSet<QString>& edited);

QTreeWidgetItem* make_item(const QString& key, const QString& pointer, const models::Json& v, bool in_array,
                           const QSet<QString>& edited) {
  auto* item = new QTreeWidgetItem;
  item->setText(kName, label_of(key, v, in_array));
  item->setData(kName, kPointerRole, pointer);
  item->setToolTip(kName, pointer);
  if (v.is_object() || v.is_array()) {
    item->setData(kName, kObjectRole, v.is_object());
    if (v.is_object())
      item->setToolTip(kName, pointer + " (right-click to add a value here)");
    add_children(item, pointer, v, edited);
    return item;
  }
  item->setText(kValue, value_string(v));
  item->setText(kUnit, unit_hint(key, v));
  item->setData(kName, kEditableRole, true);
  item->setFlags(item->flags() | Qt::ItemIsEditable);
  item->setToolTip(kValue,
                   "Double-click (or F2) to change. On the command line: --set " + pointer + "=" + value_string(v));
  if (edited.contains(pointer)) {
    QFont bold = item->font(kValue);
    bold.setBold(true);
    item->setFont(kName, bold);
    item->setFont(kValue, bold);
    item->setToolTip(kName, pointer + " (changed; right-click to reset)");
  }
  return item;
}

void add_children(QTreeWidgetItem* parent, const QString& pointer, const models::Json& v, const QSet<QString>& edited) {
  if (v.is_object()) {
    for (const auto& [k, child] : v.items()) {
      const QString key = QString::fromStdString(k);
      const QString p = pointer + "/" + QString::fromStdString(models::pointer_token(k));
      if (!hidden(p, key))
        parent->addChild(make_item(key, p, child, false, edited));
    }
  } else {
    for (std::size_t i = 0; i < v.size(); ++i) {
      const QString key = QString::number(i);
      parent->addChild(make_item(key, pointer + "/" + key, v[i], true, edited));
    }
  }
}

void collect_expanded(QTreeWidgetItem* item, QSet<QString>& out) {
  if (item->isExpanded())
    out.insert(item->data(kName, kPointerRole).toString());
  for (int i = 0; i < item->childCount(); ++i)
    collect_expanded(item->child(i), out);
}

void restore_expanded(QTreeWidgetItem* item, const QSet<QString>& expanded) {
  if (expanded.contains(item->data(kName, kPointerRole).toString()))
    item->setExpanded(true);
  for (int i = 0; i < item->childCount(); ++i)
    restore_expanded(item->child(i), expanded);
}

QTreeWidgetItem* find_in(QTreeWidgetItem* item, const QString& pointer) {
  if (item->data(kName, kPointerRole).toString() == pointer)
    return item;
  for (int i = 0; i < item->childCount(); ++i)
    if (auto* hit = find_in(item->child(i), pointer))
      return hit;
  return nullptr;
}

void clear_marks(QTreeWidgetItem* item) {
  item->setText(kCheck, QString());
  item->setToolTip(kCheck, QString());
  item->setBackground(kValue, QBrush());
  for (int i = 0; i < item->childCount(); ++i)
    clear_marks(item->child(i));
}

// Shows a leaf when it or any group above it matches; a group when anything in it does.
bool filter_item(QTreeWidgetItem* item, const QString& text, bool parent_matches) {
  const bool matches = parent_matches || text.isEmpty() || item->text(kName).contains(text, Qt::CaseInsensitive) ||
                       item->data(kName, kPointerRole).toString().contains(text, Qt::CaseInsensitive);
  bool any = matches;
  for (int i = 0; i < item->childCount(); ++i)
    any = filter_item(item->child(i), text, matches) || any;
  item->setHidden(!any);
  if (!text.isEmpty() && any && item->childCount() > 0)
    item->setExpanded(true);
  return any;
}

} // namespace

QString unit_hint(const QString& key, const models::Json& v) {
  if (!v.is_number())
    return v.is_boolean() ? "true or false" : QString();
  static const std::map<QString, QString> units{
      {"count", "nodes"},
      {"gpus", "GPUs"},
      {"nics", "NICs per node"},
      {"compute_nics", "NICs per node"},
      {"enclosures", "enclosures"},
      {"servers", "servers"},
      {"controllers", "controllers"},
      {"shelves", "shelves"},
      {"spines", "switches"},
      {"gateways", "gateways"},
      {"metadata_servers", "servers"},
      {"replicas", "replicas"},
      {"copies", "copies"},
      {"data", "data drives per stripe"},
      {"parity", "parity drives per stripe"},
      {"stripe_count", "servers per file"},
      {"drive_pcie_lanes", "PCIe lanes per drive"},
      {"pcie_switches", "PCIe switches per node"},
      {"cpu_cores", "cores per node"},
      {"oversubscription", "to 1 (down : up)"},
      {"afr", "failures per year (fraction)"},
      {"durability", "fraction per year"},
      {"pass_rate", "fraction 0..1"},
      {"ratio", "fraction 0..1"},
      {"mfu", "fraction 0..1 (model FLOP utilization)"},
      {"pue", "ratio (facility / IT power)"},
      {"weibull_shape", "shape (1 = constant rate)"},
      {"rebuild_priority", "share of drive bandwidth 0..1"},
      {"steady_state_write_factor", "fraction of the fresh-drive write rate"},
      {"global_batch", "samples per step"},
      {"outstanding_ios", "I/Os in flight per node"},
      {"parameters", "parameters"},
      {"bytes_per_parameter", "bytes per parameter"},
      {"tokens_per_sample", "tokens per sample"},
      {"prefetch_batches", "batches"},
      {"checkpoint_keep_last", "checkpoints"},
      {"evaluate_every", "checkpoints"},
      {"production_every", "validated models (0: never)"},
      {"interval_steps", "steps"},
      {"epochs", "epochs"},
      {"reads_per_request", "reads per request"},
      {"connections_per_node", "connections per node"},
      {"client_nic_share", "share of the NICs 0..1"},
      {"mtu", "bytes (IP MTU)"},
      {"metadata_ops_per_file", "metadata operations per file"},
      {"index", "which one (from 0)"},
      {"seed", "random seed"},
  };
  if (const auto it = units.find(key); it != units.end())
    return it->second;
  // "drives_per_enclosure" -> "drives per enclosure", "gpus_per_replica" -> "GPUs per replica".
  if (const auto per = key.indexOf("_per_"); per > 0) {
    QString what = key.left(per).replace('_', ' ');
    if (what == "gpus")
      what = "GPUs";
    return what + " per " + key.mid(per + 5).replace('_', ' ');
  }
  return "number";
}

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent), filter_(new QLineEdit), tree_(new QTreeWidget) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  filter_->setPlaceholderText("Filter parameters (name or /json/pointer)");
  filter_->setClearButtonEnabled(true);
  layout->addWidget(filter_);
  layout->addWidget(tree_, 1);
  QObject::connect(filter_, &QLineEdit::textChanged, [this](const QString& t) { apply_filter(t); });

  tree_->setColumnCount(4);
  tree_->setHeaderLabels({"parameter", "value", "unit", "check"});
  tree_->header()->setSectionResizeMode(kName, QHeaderView::ResizeToContents);
  tree_->header()->setSectionResizeMode(kValue, QHeaderView::Interactive);
  tree_->header()->setSectionResizeMode(kUnit, QHeaderView::Interactive);
  tree_->setColumnWidth(kUnit, 150);
  tree_->header()->setStretchLastSection(true);
  tree_->setColumnWidth(kValue, 140);
  tree_->setAlternatingRowColors(true);
  tree_->setUniformRowHeights(true);
  // Only the value column is edited: double-click or F2 anywhere on the row opens the value's editor.
  tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  const auto open_editor = [this](QTreeWidgetItem* item) {
    if (item && item->data(kName, kEditableRole).toBool())
      tree_->editItem(item, kValue);
  };
  QObject::connect(tree_, &QTreeWidget::itemDoubleClicked,
                   [open_editor](QTreeWidgetItem* item, int) { open_editor(item); });
  auto* edit_action = new QAction(tree_);
  edit_action->setShortcut(Qt::Key_F2);
  edit_action->setShortcutContext(Qt::WidgetShortcut);
  tree_->addAction(edit_action);
  QObject::connect(edit_action, &QAction::triggered, [this, open_editor] { open_editor(tree_->currentItem()); });

  QObject::connect(tree_, &QTreeWidget::itemChanged, [this](QTreeWidgetItem* item, int column) {
    if (updating_ || column != kValue || !item->data(kName, kEditableRole).toBool())
      return;
    const QString pointer = item->data(kName, kPointerRole).toString();
    const QString text = item->text(kValue).trimmed();
    // Report from the event loop: the window may rebuild the tree, which must not happen inside this signal.
    QTimer::singleShot(0, tree_, [this, pointer, text] {
      if (on_edit)
        on_edit(pointer, text);
    });
  });

  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  QObject::connect(tree_, &QTreeWidget::customContextMenuRequested, [this](const QPoint& at) {
    auto* item = tree_->itemAt(at);
    if (item && item->data(kName, kObjectRole).toBool()) {
      const QString pointer = item->data(kName, kPointerRole).toString();
      QMenu menu;
      menu.addAction("Add a value here...", [this, pointer] {
        bool ok = false;
        const QString entry =
            QInputDialog::getText(this, "Add a value",
                                  "Under " + pointer +
                                      ", as key=value (the value read as JSON where it parses,\n"
                                      "e.g. node_mtbf=50000h or failures={\"drives\":{\"repair_time\":\"24h\"}}):",
                                  QLineEdit::Normal, QString(), &ok);
        const auto eq = entry.indexOf('=');
        if (ok && eq > 0)
          add(pointer, entry.left(eq).trimmed(), entry.mid(eq + 1).trimmed());
      });
      menu.exec(tree_->viewport()->mapToGlobal(at));
      return;
    }
    if (!item || !item->data(kName, kEditableRole).toBool())
      return;
    const QString pointer = item->data(kName, kPointerRole).toString();
    const QString value = item->text(kValue);
    QMenu menu;
    menu.addAction("Change value", [this, item] { tree_->editItem(item, kValue); });
    menu.addAction("Reset to the file's value", [this, pointer] {
      if (on_revert)
        on_revert(pointer);
    });
    menu.addAction("Copy as --set",
                   [pointer, value] { QGuiApplication::clipboard()->setText("--set " + pointer + "=" + value); });
    menu.exec(tree_->viewport()->mapToGlobal(at));
  });
}

void ParameterPanel::clear() {
  updating_ = true;
  tree_->clear();
  updating_ = false;
}

void ParameterPanel::show_document(const models::Json& resolved, const QSet<QString>& edited) {
  QSet<QString> expanded;
  for (int i = 0; i < tree_->topLevelItemCount(); ++i)
    collect_expanded(tree_->topLevelItem(i), expanded);
  const bool first = tree_->topLevelItemCount() == 0;
  const int scroll = tree_->verticalScrollBar() ? tree_->verticalScrollBar()->value() : 0;
  updating_ = true;
  tree_->clear();
  for (const auto& [k, v] : resolved.items()) {
    const QString key = QString::fromStdString(k);
    const QString p = "/" + QString::fromStdString(models::pointer_token(k));
    if (!hidden(p, key))
      tree_->addTopLevelItem(make_item(key, p, v, false, edited));
  }
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    auto* top = tree_->topLevelItem(i);
    if (first) {
      // A first look: every section open one level, the drive models (long datasheets) closed.
      top->setExpanded(top->text(kName) != "drives");
      for (int c = 0; c < top->childCount(); ++c)
        if (top->child(c)->childCount() > 0 && top->text(kName) != "drives")
          top->child(c)->setExpanded(true);
    } else {
      restore_expanded(top, expanded);
    }
  }
  updating_ = false;
  apply_filter(filter_->text());
  if (!first)
    tree_->verticalScrollBar()->setValue(scroll);
}

QTreeWidgetItem* ParameterPanel::find(const QString& pointer) const {
  for (int i = 0; i < tree_->topLevelItemCount(); ++i)
    if (auto* hit = find_in(tree_->topLevelItem(i), pointer))
      return hit;
  return nullptr;
}

QStringList ParameterPanel::show_diagnostics(const models::Diagnostics& diagnostics) {
  updating_ = true;
  for (int i = 0; i < tree_->topLevelItemCount(); ++i)
    clear_marks(tree_->topLevelItem(i));
  QStringList unplaced;
  QTreeWidgetItem* first_error = nullptr;
  for (const auto& d : diagnostics.items()) {
    QString pointer = QString::fromStdString(d.pointer);
    QTreeWidgetItem* item = pointer.isEmpty() ? nullptr : find(pointer);
    // A message about a key the panel does not show lands on the nearest group that holds it.
    while (!item && pointer.count('/') > 1) {
      pointer = pointer.left(pointer.lastIndexOf('/'));
      item = find(pointer);
    }
    const QString message = QString::fromStdString(d.message);
    if (!item) {
      unplaced << (d.pointer.empty() ? message : QString::fromStdString(d.pointer) + ": " + message);
      continue;
    }
    const QString shown = item->text(kCheck).isEmpty() ? message : item->text(kCheck) + "; " + message;
    item->setText(kCheck, (d.warning ? "warning: " : "") + shown);
    item->setToolTip(kCheck, QString::fromStdString(d.pointer) + ": " + message);
    item->setToolTip(kValue, QString::fromStdString(d.pointer) + ": " + message);
    item->setForeground(kCheck, d.warning ? QColor("#8a6d00") : QColor("#b00020"));
    if (!d.warning) {
      item->setBackground(kValue, QColor("#fde0e0"));
      if (!first_error)
        first_error = item;
    }
    for (auto* p = item->parent(); p; p = p->parent())
      p->setExpanded(true);
  }
  updating_ = false;
  if (first_error)
    tree_->scrollToItem(first_error);
  return unplaced;
}

void ParameterPanel::show_text(const QString& pointer, const QString& text) {
  if (auto* item = find(pointer)) {
    updating_ = true;
    item->setText(kValue, text);
    updating_ = false;
  }
}

bool ParameterPanel::edit(const QString& pointer, const QString& text) {
  auto* item = find(pointer);
  if (!item || !item->data(kName, kEditableRole).toBool())
    return false;
  item->setText(kValue, text); // itemChanged reports it, as an edit closed by the planner would
  return true;
}

bool ParameterPanel::add(const QString& group, const QString& key, const QString& text) {
  auto* item = find(group);
  if (!item || !item->data(kName, kObjectRole).toBool() || key.isEmpty())
    return false;
  const QString pointer = group + "/" + QString::fromStdString(models::pointer_token(key.toStdString()));
  QTimer::singleShot(0, tree_, [this, pointer, text] {
    if (on_edit)
      on_edit(pointer, text);
  });
  return true;
}

QString ParameterPanel::value_text(const QString& pointer) const {
  const auto* item = find(pointer);
  return item ? item->text(kValue) : QString();
}

QString ParameterPanel::unit_text(const QString& pointer) const {
  const auto* item = find(pointer);
  return item ? item->text(kUnit) : QString();
}

QString ParameterPanel::check_text(const QString& pointer) const {
  const auto* item = find(pointer);
  return item ? item->text(kCheck) : QString();
}

void ParameterPanel::apply_filter(const QString& text) {
  for (int i = 0; i < tree_->topLevelItemCount(); ++i)
    filter_item(tree_->topLevelItem(i), text.trimmed(), false);
}

QString ParameterPanel::current_pointer() const {
  const auto* item = tree_->currentItem();
  return item ? item->data(kName, kPointerRole).toString() : QString();
}

} // namespace aisim::gui
