// A workflow task as one list item: what it is about (schema, fields, workflow), its status, who has
// it, and when.

import { oneLine } from "../../../core/untrusted-text.js";
import type { WorkflowTask } from "../records/notebook.js";
import { fieldText } from "./field.js";
import { nameAndId } from "./labels.js";

export function taskLine(task: WorkflowTask): string {
  const about = Object.entries(task.fields ?? {})
    .map(([name, value]) => {
      const text = fieldText(value);
      return text ? `${name}: ${text}` : undefined;
    })
    .filter(Boolean);
  const team = (task.responsibleParties ?? []).map((p) => nameAndId(p.name, p.id)).join(", ");
  const group = task.workflowTaskGroup;
  const facts = [
    task.status?.displayName && `status ${task.status.displayName}`,
    task.assignee ? `assigned to ${nameAndId(task.assignee.name, task.assignee.id)}` : "not assigned yet",
    team && `team ${team}`,
    group && `workflow ${nameAndId(group.name, group.id)}`,
    task.scheduledOn && `scheduled ${task.scheduledOn}`,
    task.executionOrigin?.entryId && `entry ${task.executionOrigin.entryId}`,
  ].filter(Boolean);
  const title = `${task.displayId ?? "Task"} (${task.id ?? "no id"})`;
  const schema = task.schema?.name ? ` ${task.schema.name}` : "";
  return [
    oneLine(`- **${title}**${schema}${about.length > 0 ? `: ${about.join("; ")}` : ""}`),
    `  ${oneLine(facts.join("; "))}`,
  ].join("\n");
}
