#include "gui/scenario_edits.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <QFile>
#include <QSaveFile>

#include <algorithm>

namespace aisim::gui {

bool ScenarioEdits::load(const QString& path, QString* error) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *error = path + ": " + f.errorString();
    return false;
  }
  models::Diagnostics diag(path.toStdString());
  auto doc = models::parse_json_text(f.readAll().toStdString(), diag);
  if (!doc) {
    *error = QString::fromStdString(diag.format(false));
    return false;
  }
  path_ = path;
  file_ = std::move(*doc);
  edits_.clear();
  history_.clear();
  resolved_ = models::Json::object();
  rebuild();
  return true;
}

void ScenarioEdits::set(const QString& pointer, const QString& text, const models::Json& resolved) {
  history_.push_back(edits_);
  const auto it = std::find_if(edits_.begin(), edits_.end(), [&](const auto& e) { return e.first == pointer; });
  if (it != edits_.end())
    it->second = text;
  else
    edits_.emplace_back(pointer, text);
  if (!resolved.empty())
    resolved_ = resolved;
  rebuild();
}

void ScenarioEdits::revert(const QString& pointer) {
  history_.push_back(edits_);
  std::erase_if(edits_, [&](const auto& e) { return e.first == pointer; });
  rebuild();
}

bool ScenarioEdits::undo() {
  if (history_.empty())
    return false;
  edits_ = std::move(history_.back());
  history_.pop_back();
  rebuild();
  return true;
}

std::vector<QString> ScenarioEdits::edited() const {
  std::vector<QString> out;
  for (const auto& e : edits_)
    out.push_back(e.first);
  return out;
}

std::optional<QString> ScenarioEdits::edited_text(const QString& pointer) const {
  for (const auto& e : edits_)
    if (e.first == pointer)
      return e.second;
  return std::nullopt;
}

// Turns the edits into overrides against the file. An edit whose parent the file lacks becomes an override of the
// first missing object, filled from the resolved scenario and changed there with the same apply_override.
void ScenarioEdits::rebuild() {
  sets_.clear();
  document_ = file_;
  for (const auto& [pointer, text] : edits_) {
    const std::string ptr = pointer.toStdString();
    QString assignment = pointer + "=" + text;
    try {
      models::Json::json_pointer jp(ptr);
      auto parent = jp.parent_pointer();
      if (!document_.contains(parent) && !parent.empty()) {
        // Walk up to the first ancestor the document has; `missing` is its child on the way down.
        auto missing = parent;
        while (!missing.parent_pointer().empty() && !document_.contains(missing.parent_pointer()))
          missing = missing.parent_pointer();
        const std::string missing_str = missing.to_string();
        const std::string rest = ptr.substr(missing_str.size());
        if (resolved_.contains(missing) && resolved_.at(missing).is_object()) {
          models::Json holder{{"v", resolved_.at(missing)}};
          models::Diagnostics ignored;
          if (models::apply_override(holder, "/v" + rest + "=" + text.toStdString(), ignored))
            assignment = QString::fromStdString(missing_str + "=" + holder["v"].dump());
        }
      }
    } catch (const models::Json::exception&) {
      // A malformed pointer: the override goes as typed and the CLI's check reports it.
    }
    sets_ << assignment;
    models::Diagnostics ignored;
    models::apply_override(document_, assignment.toStdString(), ignored);
  }
}

ScenarioEdits::Checked ScenarioEdits::check() const {
  std::vector<std::string> sets;
  for (const auto& s : sets_)
    sets.push_back(s.toStdString());
  auto loaded = models::load_scenario(path_.toStdString(), sets);
  Checked out{std::nullopt, loaded.diagnostics};
  if (loaded.scenario)
    out.resolved = loaded.scenario->resolved;
  return out;
}

bool ScenarioEdits::save(const QString& path, QString* error) const {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly)) {
    *error = path + ": " + f.errorString();
    return false;
  }
  const std::string text = document_.dump(2) + "\n";
  if (f.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) || !f.commit()) {
    *error = path + ": " + f.errorString();
    return false;
  }
  return true;
}

} // namespace aisim::gui
